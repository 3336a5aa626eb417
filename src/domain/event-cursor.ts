import { DomainError } from './domain-error';

/**
 * The outbox positions a reader can have been handed (P53): `c` + 15 digits, or the
 * `<ISO instant>|<event id>` of events stored before P53, which an old cursor may still hold.
 */
const POSITION = /^c\d{15}$/;
const LEGACY_POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z\|.*$/;

/** Both forms as one pattern, for the OpenAPI document (a client and a fuzzer see what is accepted). */
export const EVENT_CURSOR_PATTERN = `^(?:${POSITION.source.slice(1, -1)}|${LEGACY_POSITION.source.slice(1, -1)})$`;

/**
 * A garbage cursor used to restart the log or come back as the next page's cursor, so a consumer
 * polled forever (P145): anything that is not a position is a 400 / BAD_USER_INPUT naming the field.
 */
export function validateEventCursor(field: string, cursor: string): string {
  if (!POSITION.test(cursor) && !LEGACY_POSITION.test(cursor)) {
    throw DomainError.invalid(field, 'is not a cursor of the event log (pass an endCursor or startCursor it handed out)');
  }
  return cursor;
}
