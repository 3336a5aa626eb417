import { createHash, createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';
import { DEFAULT_TIME_ZONE, formatClock } from './clock-format';
import { DomainError } from './domain-error';
import { CascadeReason } from './cascade';
import { HealthEvent, HealthEventType } from './health-events';
import { Scope } from './scope';
import type { BlankableKeys } from './same-keys';

/**
 * Signed webhooks, as pure rules (P180–P189) (D24). Which event goes to which endpoint,
 * the Standard Webhooks signature, the retry schedule, the targets refused, the Slack text.
 */

/** The body an endpoint receives: Standard Webhooks' JSON envelope, or `{ text }` for a Slack incoming webhook. */
export enum WebhookFormat {
  STANDARD = 'STANDARD',
  SLACK = 'SLACK',
}

/** What an endpoint wants; an empty list means "every" (P181). */
export interface WebhookFilter {
  eventTypes: HealthEventType[];
  toolNames: string[];
  scopes: Scope[];
  tenantIds: string[];
}

export const MAX_WEBHOOK_URL_LENGTH = 2000;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 500;
export const MAX_WEBHOOK_FILTER_ITEMS = 100;
/** How much of a receiver's answer an attempt keeps (P184). */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** The Standard Webhooks secret prefix; the rest is base64 of the key bytes. */
export const SECRET_PREFIX = 'whsec_';
/** Bytes of a generated key (the spec asks for 24 to 64). */
export const SECRET_BYTES = 32;
/** A rotated-out secret still signs for this long (P182). */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/**
 * Does `event` go to an endpoint with this filter? Every non-empty list must hold the event's
 * value (P181). The tenant of an event is its scope id at TENANT scope, else the stored tenant of its
 * document (`documentTenant`, null when unknown or none): an endpoint filtered by tenant never
 * receives an event whose tenant is unknown.
 */
export function matchesFilter(
  filter: WebhookFilter,
  event: Pick<HealthEvent, 'type' | 'toolName' | 'scope' | 'scopeId'>,
  documentTenant: string | null,
): boolean {
  if (filter.eventTypes.length > 0 && !filter.eventTypes.includes(event.type)) return false;
  if (filter.toolNames.length > 0 && !filter.toolNames.includes(event.toolName)) return false;
  if (filter.scopes.length > 0 && !filter.scopes.includes(event.scope)) return false;
  if (filter.tenantIds.length > 0) {
    const tenant = event.scope === Scope.TENANT ? event.scopeId : documentTenant;
    if (tenant === null || !filter.tenantIds.includes(tenant)) return false;
  }
  return true;
}

// ---- secrets and signatures (Standard Webhooks v1) -----------------------------------------------

/** `whsec_` + base64 of the key bytes (the caller draws them: the domain takes no randomness). */
export function secretOf(keyBytes: Uint8Array): string {
  if (keyBytes.length < 24 || keyBytes.length > 64) throw new Error('a webhook secret has 24 to 64 bytes');
  return SECRET_PREFIX + Buffer.from(keyBytes).toString('base64');
}

/** The key bytes of a `whsec_` secret. */
export function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with one secret. */
export function signatureOf(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret still valid, space-separated (P182). */
export function signatureHeader(secrets: readonly string[], webhookId: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => signatureOf(secret, webhookId, timestampSeconds, body)).join(' ');
}

export interface StoredSecret {
  secret: string;
  createdAt: Date;
  /** null while it is the current secret; set (now + 24 h) when rotated out. */
  expiresAt: Date | null;
}

/** The secrets that sign at `now`: the current one and any rotated out less than 24 h ago, newest first. */
export function signingSecrets(secrets: readonly StoredSecret[], now: Date): string[] {
  return secrets
    .filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now.getTime())
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map((s) => s.secret);
}

/** Rotation — the current secret expires in 24 h, the new one becomes current; expired ones are dropped (P182). */
export function rotateSecrets(secrets: readonly StoredSecret[], fresh: string, now: Date): StoredSecret[] {
  const kept = secrets
    .filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now.getTime())
    .map((s) => (s.expiresAt === null ? { ...s, expiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS) } : s));
  return [{ secret: fresh, createdAt: now, expiresAt: null }, ...kept];
}

/**
 * The `webhook-id` of an event at an endpoint — the same on every retry and resend, so a
 * receiver deduplicates by it; different per endpoint, so two endpoints of one receiver do not
 * collide (P183). `msg_` + 32 hex digits of SHA-256 over both ids.
 */
export function webhookIdOf(endpointId: string, eventId: string): string {
  return `msg_${createHash('sha256').update(`${endpointId}\n${eventId}`).digest('hex').slice(0, 32)}`;
}

// ---- retries (P184) ------------------------------------------------------------------------------

/** The first retry follows a failure after this long; each next one waits twice as long… */
export const RETRY_BASE_MS = 10_000;
/** …up to this… */
export const RETRY_MAX_MS = 4 * 3_600_000;
/** …each delay shifted at random by up to ±20 %… */
export const RETRY_JITTER = 0.2;
/** …and no attempt later than this after the first failed one: then the endpoint is disabled. */
export const RETRY_GIVE_UP_MS = 24 * 3_600_000;

/** The delay before retry number `retry` (1 = the first retry), without jitter. */
export function retryDelayMs(retry: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, retry - 1), RETRY_MAX_MS);
}

/**
 * When to try a failing delivery again, or null to give up (disable the endpoint). `failures` is
 * how many attempts failed so far (≥ 1), `firstFailedAt` when the first of them failed; `random`
 * in [0, 1) picks the jitter. The last retry is due exactly 24 h after the first failure.
 */
export function nextRetryAt(firstFailedAt: Date, failures: number, now: Date, random: number): Date | null {
  const giveUpAt = firstFailedAt.getTime() + RETRY_GIVE_UP_MS;
  if (now.getTime() >= giveUpAt) return null;
  const jitter = 1 + RETRY_JITTER * (2 * random - 1);
  const at = now.getTime() + Math.round(retryDelayMs(failures) * jitter);
  return new Date(Math.min(at, giveUpAt));
}

// ---- targets (P185) ------------------------------------------------------------------------------

/**
 * Whether an address is on the public internet is the special-purpose registries' call, not ours:
 * ipaddr.js keeps them (loopback, private, link-local, carrier-grade NAT, documentation,
 * benchmarking, multicast, reserved; for IPv6 also site-local, discard, SIIT, NAT64 well-known and
 * local-use prefixes, 6to4, Teredo, ORCHID…). An address is public only when it is plain unicast.
 * An IPv4-mapped address is judged as the IPv4 address it carries. The deprecated IPv4-compatible
 * block (::a.b.c.d, which ipaddr.js files as unicast) reaches IPv4 space on hosts that still route
 * it, so it is refused too (P221).
 */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** True for an address that is not plain public unicast (IPv4-mapped IPv6 judged as its IPv4); also for a string that is no address. */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true; // not an address: never a public one
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPrivateAddress(v6.toIPv4Address().toString());
    if (v6.match(IPV4_COMPATIBLE)) return true;
  } else if (!ipaddr.IPv4.isValidFourPartDecimal(address)) {
    // A short or octal/hex spelling (127.1, 0x7f.1) is judged by the address it means, as a client would connect.
    return isPrivateAddress(parsed.toString());
  }
  return parsed.range() !== 'unicast';
}

/**
 * A host name as it is compared: lower case, without the trailing dots that make it absolute
 * (`LocalHost.` and `localhost..` name the same host as `localhost`).
 */
export function normalizedHostName(host: string): string {
  return host.toLowerCase().replace(/\.+$/, '');
}

/** Names that stand for this machine whatever a resolver says (RFC 6761). */
function isLoopbackName(host: string): boolean {
  const name = normalizedHostName(host);
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * A URL an endpoint may have — http or https, a host, no credentials in it (P185). When private
 * targets are not allowed, a host that is an address literal in a private range is refused here
 * (a name is resolved and checked at every delivery). Returns the normalised URL.
 */
export function validateWebhookUrl(field: string, raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw DomainError.invalid(field, 'is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw DomainError.invalid(field, 'must be an http or https URL');
  if (url.username || url.password) throw DomainError.invalid(field, 'must not carry a user name or password');
  if (!url.hostname) throw DomainError.invalid(field, 'has no host');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (isIP(host) !== 0 ? isPrivateAddress(host) : isLoopbackName(host))) {
    throw DomainError.invalid(field, 'points at a private or loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)');
  }
  return url.toString();
}

/** Why resolved addresses may not be used, or null when they may (every one must be public unless allowed). */
export function refusedTarget(addresses: readonly string[], allowPrivate: boolean): string | null {
  if (addresses.length === 0) return 'the host name resolved to no address';
  if (allowPrivate) return null;
  const bad = addresses.find(isPrivateAddress);
  return bad === undefined ? null : `the host resolves to ${bad}, a private or loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)`;
}

// ---- bodies (P186) -------------------------------------------------------------------------------

/** The JSON an event is delivered as: `{ type, timestamp, data }` (Standard Webhooks), data = the event as /v1/events gives it. */
export function standardBody(event: HealthEvent & { position: string }): string {
  return JSON.stringify({ type: event.type, timestamp: event.at, data: event });
}

/** The test ping's body (P187). */
export function pingBody(endpointId: string, now: Date): string {
  return JSON.stringify({ type: 'WEBHOOK_PING', timestamp: now, data: { endpointId } });
}

const NOTE_MAX = 300;

/** A zone's short name at an instant, e.g. "CEST", "UTC" (the IANA name where the locale knows none). */
function zoneLabel(timeZone: string, at: Date): string {
  try {
    const part = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part && !/^GMT[+-]/.test(part.value) ? part.value : timeZone;
  } catch {
    return timeZone;
  }
}

/**
 * What every event's one-line summary is written with (the event catalogue's `summary` of each
 * type, src/features/events/): the head "jira_search is DOWN for everyone" and the helpers that write
 * times, scopes and notes the same way in every line.
 */
export interface EventText {
  /** "<tool> is <effective status> <for whom>", a pin said as such: "sharepoint is OK for tenant acme (pinned OK; its entry says DOWN)". */
  head: string;
  /** For whom, in words: "for everyone", "for tenant acme", "for project p-1 (tenant acme)". */
  where: string;
  /** A time in the endpoint's zone, with the zone's label (e.g. "14:30 CEST"), as D15 writes them. */
  clock(at: Date): string;
  /** A note cut to 300 characters. */
  clip(text: string): string;
  /** An enum value as words: "TECHNICALLY_BROKEN" → "technically broken". */
  words(value: string): string;
}

export function eventText(event: HealthEvent, now: Date, timeZone: string): EventText {
  // Times in the endpoint's zone, with its label, so a reader elsewhere is not misled (P232).
  const label = zoneLabel(timeZone, event.at);
  const clock = (at: Date) => `${formatClock(at, now, timeZone)} ${label}`;
  const place = forWhom(event);
  return {
    head: `${event.toolName} is ${event.effectiveStatus} ${place}${whyItReadsSo(event, clock)}`,
    where: place,
    clock,
    clip,
    words,
  };
}

/**
 * The status a scope reads as is what its callers are told; when it is not what the entry
 * itself says, the line says why — a pin, a window, or a problem of a wider scope — and where
 * (D27, P228, P265).
 */
function whyItReadsSo(event: HealthEvent, clock: (at: Date) => string): string {
  if (event.effectiveStatus === event.status) return '';
  const entry = `its entry says ${event.status}`;
  const source = event.effective;
  if (!source) return ` (pinned ${event.effectiveStatus}; ${entry})`;
  const own = source.scope === event.scope && source.scopeId === event.scopeId;
  const there = own || source.scope === null ? '' : ` ${forWhom({ scope: source.scope, scopeId: source.scopeId, tenantId: null })}`;
  // An estimate already past is no answer to "until when" (the entry is overdue, not back).
  const end = source.until && source.until.getTime() > event.at.getTime() ? clock(source.until) : null;
  switch (source.reason) {
    case CascadeReason.PINNED:
      return ` (pinned ${event.effectiveStatus}${there}${end ? ` until ${end}` : ''}; ${entry})`;
    case CascadeReason.MAINTENANCE:
      return ` (under maintenance${there}${end ? ` until ${end}` : ''}; ${entry})`;
    default:
      return ` (${event.effectiveStatus}${there}${end ? `, expected back at ${end}` : ''}; ${entry})`;
  }
}

function clip(text: string): string {
  return text.length > NOTE_MAX ? `${text.slice(0, NOTE_MAX - 1)}…` : text;
}

function words(value: string): string {
  return value.toLowerCase().replace(/_/g, ' ');
}

/** Who an entry concerns, with its tenant where the event knows one, so a channel reader need not look it up (P265). */
function forWhom(event: Pick<HealthEvent, 'scope' | 'scopeId' | 'tenantId'>): string {
  if (event.scope === Scope.GLOBAL || event.scopeId === null) return 'for everyone';
  const tenant = event.scope !== Scope.TENANT && event.tenantId ? ` (tenant ${event.tenantId})` : '';
  return `for ${event.scope.toLowerCase()} ${event.scopeId}${tenant}`;
}

/**
 * The Slack body's text: an event's one-line summary, e.g. "jira_search is DOWN for everyone:
 * technically broken — HTTP 503 from Jira. Expected back at 14:30 UTC." (P186, P265), and a link
 * to the console when its address is known.
 */
export function slackText(summary: string, consoleUrl: string | null = null): string {
  // Slack's link syntax: the console, where the whole story of the tool is (P232).
  return consoleUrl ? `${summary} — <${consoleUrl}|open the console>` : summary;
}

// ---- the stored shapes -----------------------------------------------------------------------------

/** A failing delivery the endpoint waits on (P184): its queue stands still until this event is delivered or given up. */
export interface WebhookRetry {
  eventId: string;
  position: string;
  failures: number;
  firstFailedAt: Date;
  nextAttemptAt: Date;
}

/**
 * What an admin sets on an endpoint: the create and change requests carry exactly these fields
 * (src/features/webhooks/webhook.dto.ts is typed from this list), and a change may set any of them.
 */
export interface WebhookEndpointSettings extends WebhookFilter {
  url: string;
  description: string;
  format: WebhookFormat;
  /** IANA time zone of the times in Slack texts. */
  timeZone: string;
  enabled: boolean;
}

export interface WebhookEndpoint extends WebhookEndpointSettings {
  id: string;
  secrets: StoredSecret[];
  createdAt: Date;
  updatedAt: Date;
  /** "admin:<key name>" of the last change. */
  by: string;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** The outbox position of the last event handled (delivered or not wanted); null: from the start. */
  cursor: string | null;
  retry: WebhookRetry | null;
  /** Bumped by every admin change (optimistic writes); the delivery worker's writes leave it alone. */
  version: number;
}

/** The settings a request may leave out (all but the URL). */
export type DefaultedSetting = Exclude<keyof WebhookEndpointSettings, 'url'>;

/**
 * The one place an endpoint's neutral values are written: the settings a create request leaves
 * out, and what an endpoint stored before a field existed reads as (the repository fills them in;
 * the driver applies no schema default). Its type names every defaulted setting and every field
 * that may be null or is a list, so a new one fails `tsc` until it is given here.
 */
export function endpointBlanks(): Pick<WebhookEndpointSettings, DefaultedSetting> &
  Pick<WebhookEndpoint, Exclude<BlankableKeys<WebhookEndpoint>, 'secrets'>> {
  return {
    description: '',
    eventTypes: [],
    toolNames: [],
    scopes: [],
    tenantIds: [],
    format: WebhookFormat.STANDARD,
    timeZone: DEFAULT_TIME_ZONE,
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    cursor: null,
    retry: null,
  };
}

/** What made an attempt. */
export enum WebhookTrigger {
  DELIVERY = 'DELIVERY',
  RETRY = 'RETRY',
  RESEND = 'RESEND',
  PING = 'PING',
}

export enum WebhookDeliveryState {
  /** The last attempt failed; another is due at `nextAttemptAt`. */
  RETRYING = 'RETRYING',
  DELIVERED = 'DELIVERED',
  /** The last attempt failed and no retry follows (given up, or a ping or resend that failed). */
  FAILED = 'FAILED',
}

export interface WebhookAttempt {
  at: Date;
  trigger: WebhookTrigger;
  /** The receiver's HTTP status; null when none came (timeout, refused, not resolved). */
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed, in words; null on a 2xx. */
  error: string | null;
  /** The first RESPONSE_EXCERPT_BYTES of the answer's body (as UTF-8 text). */
  responseExcerpt: string | null;
}

export interface WebhookDelivery {
  /** The `webhook-id` sent. */
  id: string;
  endpointId: string;
  /** The outbox event delivered; null for a ping. */
  eventId: string | null;
  eventType: string;
  state: WebhookDeliveryState;
  attempts: WebhookAttempt[];
  createdAt: Date;
  updatedAt: Date;
  nextAttemptAt: Date | null;
}

/** A 2xx, and only a 2xx, delivers (a 3xx is not followed: it fails). */
export function isDelivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}
