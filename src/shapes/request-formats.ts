import { ToolHealthClassification } from '../domain/classification';

/**
 * Where a classification names a failure (a failure report's, a cooldown's), the document
 * offers only the failure classes — WORKING sets no cooldown and is refused with a 400 — as its
 * own enum component, so a schema-valid request is never refused for it (P144).
 */
export const FAILURE_CLASSIFICATION = {
  enum: Object.values(ToolHealthClassification).filter((c) => c !== ToolHealthClassification.WORKING),
  enumName: 'FailureClassification',
};

/** An IANA time zone name (a format of this document's own; the fuzzer draws real zone names for it). */
export const IANA_TIME_ZONE = { format: 'iana-time-zone', minLength: 1 };
