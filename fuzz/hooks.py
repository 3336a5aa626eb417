"""Schemathesis hooks for the fuzz step (P144), loaded through SCHEMATHESIS_HOOKS by fuzz/run.mjs.

The document types a time zone as `format: iana-time-zone` (src/openapi/request-formats.ts):
schemathesis cannot know that format, so it is taught to draw real zone names for it — a random
string is no more a valid time zone than it is a valid date.
"""
import schemathesis
from hypothesis import strategies as st

schemathesis.openapi.format(
    "iana-time-zone",
    st.sampled_from(["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"]),
)


# An Idempotency-Key names one request (D21, P122): a key drawn twice for two different bodies is
# rightly a 422, which is no schema mismatch. Each generated request gets a fresh key; the replay
# and mismatch rules are proven by test/idempotency.e2e-spec.ts.
def _fresh_idempotency_key() -> str:
    import uuid

    return str(uuid.uuid4())


schemathesis.openapi.format("idempotency-key", st.builds(_fresh_idempotency_key))
