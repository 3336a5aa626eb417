"""Schemathesis hooks for the fuzz step (P144), loaded through SCHEMATHESIS_HOOKS by fuzz/run.mjs.

The document types a time zone as `format: iana-time-zone` (src/shapes/request-formats.ts):
schemathesis cannot know that format, so it is taught to draw real zone names for it — a random
string is no more a valid time zone than it is a valid date.
"""
import schemathesis
from hypothesis import strategies as st

schemathesis.openapi.format(
    "iana-time-zone",
    st.sampled_from(["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"]),
)


# An Idempotency-Key names one request (D21, P122): one key sent with two different bodies is
# rightly a 422, which is no schema mismatch. Schemathesis can send one drawn key with several
# bodies (its coverage phase derives header values from the schema's pattern, not its format), so
# every positive request that carries a valid key gets a fresh one just before it is sent; a
# negative case is sent as drawn. The replay and mismatch rules are proven by
# test/idempotency.e2e-spec.ts. The valid form is the served document's own pattern, read once.
import re
import uuid

_idempotency_key_pattern = None


def _find_idempotency_key_pattern(node):
    if isinstance(node, dict):
        if node.get("in") == "header" and str(node.get("name", "")).lower() == "idempotency-key":
            pattern = (node.get("schema") or {}).get("pattern")
            if pattern:
                return pattern
        children = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return None
    for child in children:
        found = _find_idempotency_key_pattern(child)
        if found:
            return found
    return None


@schemathesis.hook
def before_load_schema(context, raw_schema):
    global _idempotency_key_pattern
    pattern = _find_idempotency_key_pattern(raw_schema)
    if pattern is None:
        raise RuntimeError("fuzz/hooks.py: the served document declares no Idempotency-Key header pattern")
    _idempotency_key_pattern = re.compile(pattern)


@schemathesis.hook
def before_call(context, case, kwargs):
    # Positive cases only: editing a case makes schemathesis revalidate it, and a negative case
    # (one that leaves out the API key, say) must stay the negative case it was drawn as.
    if case.meta is None or case.meta.generation.mode.is_negative:
        return
    headers = case.headers
    if not headers or _idempotency_key_pattern is None:
        return
    for name in list(headers):
        if name.lower() == "idempotency-key":
            value = headers[name]
            if isinstance(value, str) and _idempotency_key_pattern.fullmatch(value):
                headers[name] = str(uuid.uuid4())


# The document names the header's format `idempotency-key` (src/shapes/request-formats.ts); drawn
# as UUIDs, the form real callers send.
schemathesis.openapi.format("idempotency-key", st.uuids().map(str))
