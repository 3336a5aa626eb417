import { DomainError } from '../domain/domain-error';
import { decodeKey, encodeKey } from '../domain/health-key';

/** A list cursor is the document's `_id` (its encoded key, D3a), base64url so clients treat it as opaque. */
export function toolHealthCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The `_id` a cursor stands for; BAD_USER_INPUT on anything this list never handed out. */
export function idOfToolHealthCursor(cursor: string, field = 'after'): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  let canonical = false;
  try {
    canonical = toolHealthCursor(id) === cursor && encodeKey(decodeKey(id)) === id;
  } catch {
    canonical = false;
  }
  if (!canonical) throw DomainError.invalid(field, 'is not a cursor of this list');
  return id;
}
