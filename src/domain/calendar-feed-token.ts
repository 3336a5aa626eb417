import { createHash } from 'node:crypto';
import { DomainError } from './domain-error';

/**
 * A read-only token for the maintenance calendar feed: calendar apps subscribe by URL and send
 * no headers, so the feed takes this token in its query string. It opens that feed alone, never
 * another route; it is shown once when created and stored only as its SHA-256 (P227).
 */
export interface CalendarFeedToken {
  id: string;
  label: string;
  tokenHash: string;
  createdAt: Date;
  /** "admin:<key name>" of the admin who created it. */
  createdBy: string;
}

/** What a feed token looks like: a prefix that says what it is, then 32 random bytes. */
export const FEED_TOKEN_PREFIX = 'calfeed_';
export const MAX_FEED_TOKEN_LABEL_LENGTH = 200;
/** The longest value the feed takes as a token (a real one has 51 characters). */
export const MAX_FEED_TOKEN_LENGTH = 128;

export function feedTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new token's secret from 32 random bytes (the caller draws them, so this stays pure). */
export function feedTokenSecret(random: Buffer): string {
  if (random.length < 32) throw new Error('a feed token needs 32 random bytes');
  return `${FEED_TOKEN_PREFIX}${random.toString('base64url')}`;
}

export function checkFeedTokenLabel(label: unknown): string {
  if (typeof label !== 'string' || label.trim() === '') throw DomainError.invalid('label', 'must be a non-empty string');
  if (label.length > MAX_FEED_TOKEN_LABEL_LENGTH)
    throw DomainError.invalid('label', `must be at most ${MAX_FEED_TOKEN_LABEL_LENGTH} characters`);
  return label.trim();
}
