import { Webhook } from 'standardwebhooks';
import { HealthEventType } from './health-events';
import { Scope } from './scope';
import {
  RETRY_GIVE_UP_MS,
  SECRET_OVERLAP_MS,
  WebhookFilter,
  isPrivateAddress,
  normalizedHostName,
  matchesFilter,
  nextRetryAt,
  refusedTarget,
  retryDelayMs,
  rotateSecrets,
  secretOf,
  signatureHeader,
  signingSecrets,
  validateWebhookUrl,
  webhookIdOf,
  eventText,
} from './webhooks';
import { CascadeReason } from './cascade';
import { ToolStatus } from './tool-status';
import { aStatusChange } from '../../test/factories';
import { HOSTILE_RESOLVED_ADDRESSES, HOSTILE_URL_HOSTS, PUBLIC_ADDRESSES, PUBLIC_URL_HOSTS } from '../../test/factories/hostile-targets';

const NOW = new Date('2026-05-23T14:00:00.000Z');
const EVERYTHING: WebhookFilter = { eventTypes: [], toolNames: [], scopes: [], tenantIds: [] };

const statusChanged = aStatusChange;

describe('webhook filters (P181)', () => {
  it('an empty filter takes every event', () => {
    expect(matchesFilter(EVERYTHING, statusChanged(), null)).toBe(true);
  });

  it('each list that is set must hold the event’s value', () => {
    expect(matchesFilter({ ...EVERYTHING, eventTypes: [HealthEventType.STATUS_CHANGED] }, statusChanged(), null)).toBe(true);
    expect(matchesFilter({ ...EVERYTHING, eventTypes: [HealthEventType.PIN_SET] }, statusChanged(), null)).toBe(false);
    expect(matchesFilter({ ...EVERYTHING, toolNames: ['jira_search'] }, statusChanged(), null)).toBe(true);
    expect(matchesFilter({ ...EVERYTHING, toolNames: ['confluence'] }, statusChanged(), null)).toBe(false);
    expect(matchesFilter({ ...EVERYTHING, scopes: [Scope.USER] }, statusChanged(), null)).toBe(false);
    expect(matchesFilter({ ...EVERYTHING, scopes: [Scope.GLOBAL], toolNames: ['confluence'] }, statusChanged(), null)).toBe(false);
  });

  it('a tenant filter matches a TENANT event by its scope id, any other by its document’s tenant, never an unknown tenant', () => {
    const filter = { ...EVERYTHING, tenantIds: ['acme'] };
    expect(matchesFilter(filter, statusChanged({ scope: Scope.TENANT, scopeId: 'acme' }), null)).toBe(true);
    expect(matchesFilter(filter, statusChanged({ scope: Scope.TENANT, scopeId: 'globex' }), 'acme')).toBe(false);
    expect(matchesFilter(filter, statusChanged({ scope: Scope.USER, scopeId: 'alice' }), 'acme')).toBe(true);
    expect(matchesFilter(filter, statusChanged({ scope: Scope.USER, scopeId: 'alice' }), null)).toBe(false);
    expect(matchesFilter(filter, statusChanged(), null)).toBe(false);
  });
});

describe('signatures (Standard Webhooks v1, P182)', () => {
  const secret = secretOf(Buffer.alloc(32, 7));
  const body = JSON.stringify({ type: 'STATUS_CHANGED', data: { toolName: 'jira_search' } });
  const ts = Math.floor(NOW.getTime() / 1000);
  // The library checks the timestamp against its own clock: it reads NOW here.
  beforeAll(() => jest.spyOn(Date, 'now').mockReturnValue(NOW.getTime()));
  afterAll(() => jest.restoreAllMocks());

  it('a secret is whsec_ + base64 of 24 to 64 bytes', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(() => secretOf(Buffer.alloc(16))).toThrow();
  });

  it('the standardwebhooks library verifies what we sign', () => {
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signatureHeader([secret], 'msg_1', ts, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('a header with two signatures verifies under either secret, and a changed body under neither', () => {
    const other = secretOf(Buffer.alloc(32, 9));
    const header = signatureHeader([other, secret], 'msg_1', ts, body);
    expect(header.split(' ')).toHaveLength(2);
    for (const s of [secret, other]) {
      expect(() =>
        new Webhook(s).verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': header }),
      ).not.toThrow();
    }
    expect(() =>
      new Webhook(secret).verify(body + ' ', { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': header }),
    ).toThrow(/No matching signature/);
  });

  it('rotation keeps the old secret signing for 24 h, the new one first', () => {
    const first = [{ secret: 'whsec_old', createdAt: new Date(NOW.getTime() - 1000), expiresAt: null }];
    const rotated = rotateSecrets(first, 'whsec_new', NOW);
    expect(signingSecrets(rotated, NOW)).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, new Date(NOW.getTime() + SECRET_OVERLAP_MS - 1))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, new Date(NOW.getTime() + SECRET_OVERLAP_MS))).toEqual(['whsec_new']);
    // A second rotation a day later drops the expired one.
    const later = new Date(NOW.getTime() + SECRET_OVERLAP_MS + 1);
    expect(rotateSecrets(rotated, 'whsec_third', later).map((s) => s.secret)).toEqual(['whsec_third', 'whsec_new']);
  });

  it('the webhook id is stable per event and endpoint, different across endpoints', () => {
    expect(webhookIdOf('e1', 'ev')).toBe(webhookIdOf('e1', 'ev'));
    expect(webhookIdOf('e1', 'ev')).not.toBe(webhookIdOf('e2', 'ev'));
    expect(webhookIdOf('e1', 'ev')).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});

describe('the retry schedule (P184)', () => {
  it('doubles from 10 s up to 4 h', () => {
    expect([1, 2, 3, 4, 5, 6].map(retryDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 320_000]);
    expect(retryDelayMs(12)).toBe(4 * 3_600_000);
    expect(retryDelayMs(40)).toBe(4 * 3_600_000);
  });

  it('jitters by at most ±20 %', () => {
    expect(nextRetryAt(NOW, 1, NOW, 0)!.getTime() - NOW.getTime()).toBe(8_000);
    expect(nextRetryAt(NOW, 1, NOW, 0.5)!.getTime() - NOW.getTime()).toBe(10_000);
    expect(nextRetryAt(NOW, 1, NOW, 0.999999)!.getTime() - NOW.getTime()).toBeLessThanOrEqual(12_000);
  });

  it('the last retry is due 24 h after the first failure, and after it the delivery gives up', () => {
    let now = NOW;
    let failures = 1;
    const times: number[] = [];
    for (;;) {
      const next = nextRetryAt(NOW, failures, now, 0.5);
      if (next === null) break;
      times.push(next.getTime() - NOW.getTime());
      now = next;
      failures += 1;
    }
    expect(times[times.length - 1]).toBe(RETRY_GIVE_UP_MS);
    // 11 doubling delays (10 s … 2 h 50 min: 5 h 41 min in all), four of 4 h, and the last cut to the 24 h mark.
    expect(times.length).toBe(16);
  });
});

describe('targets (P185)', () => {
  it('knows the private, loopback and link-local ranges, IPv4-mapped ones too', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ])
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });

  it('a URL must be http(s) without credentials; a private literal is refused unless allowed', () => {
    expect(validateWebhookUrl('url', 'https://hooks.example.com/x', false)).toBe('https://hooks.example.com/x');
    expect(() => validateWebhookUrl('url', 'ftp://example.com/', true)).toThrow(/url: must be an http or https URL/);
    expect(() => validateWebhookUrl('url', 'not a url', true)).toThrow(/url: is not an absolute URL/);
    expect(() => validateWebhookUrl('url', 'https://u:p@example.com/', true)).toThrow(/user name or password/);
    expect(() => validateWebhookUrl('url', 'http://127.0.0.1:8080/', false)).toThrow(/private or loopback/);
    expect(() => validateWebhookUrl('url', 'http://[::1]/', false)).toThrow(/private or loopback/);
    expect(() => validateWebhookUrl('url', 'http://localhost/', false)).toThrow(/private or loopback/);
    expect(validateWebhookUrl('url', 'http://127.0.0.1:8080/', true)).toBe('http://127.0.0.1:8080/');
  });

  it('every spelling of an internal or special-purpose target is refused at save when private targets are off', () => {
    expect(HOSTILE_URL_HOSTS.length).toBeGreaterThanOrEqual(70);
    const refusal = (host: string): string => {
      try {
        return `accepted as ${validateWebhookUrl('url', `http://${host}:8080/hook`, false)}`;
      } catch (error) {
        return (error as Error).message;
      }
    };
    for (const host of HOSTILE_URL_HOSTS) {
      expect([host, refusal(host)]).toEqual([host, expect.stringMatching(/url: points at a private or loopback address/)]);
      expect(validateWebhookUrl('url', `http://${host}:8080/hook`, true)).toMatch(/^http:/);
    }
    for (const host of PUBLIC_URL_HOSTS) expect(validateWebhookUrl('url', `https://${host}/hook`, false)).toMatch(/^https:/);
  });

  it('every internal or special-purpose address a name may resolve to is refused at the attempt', () => {
    for (const address of HOSTILE_RESOLVED_ADDRESSES) {
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
      expect(refusedTarget(['93.184.216.34', address], false)).toContain(address);
    }
    for (const address of PUBLIC_ADDRESSES) expect([address, isPrivateAddress(address)]).toEqual([address, false]);
  });

  it('a host name is compared without case or trailing dots', () => {
    expect(normalizedHostName('LocalHost.')).toBe('localhost');
    expect(normalizedHostName('localhost..')).toBe('localhost');
    expect(normalizedHostName('Hooks.Example.COM.')).toBe('hooks.example.com');
  });

  it('resolved addresses are refused when any is private (unless allowed) or there are none', () => {
    expect(refusedTarget(['93.184.216.34'], false)).toBeNull();
    expect(refusedTarget(['93.184.216.34', '10.0.0.1'], false)).toMatch(/10\.0\.0\.1/);
    expect(refusedTarget(['10.0.0.1'], true)).toBeNull();
    expect(refusedTarget([], true)).toMatch(/no address/);
  });
});

describe('the head of an event line: what the scope reads as, and why when its entry says otherwise (D27)', () => {
  const tenantEntryOk = { scope: Scope.TENANT, scopeId: 'acme', tenantId: 'acme', status: ToolStatus.OK };
  const head = (overrides: Parameters<typeof aStatusChange>[0]) => eventText(aStatusChange(overrides), AT, 'UTC').head;
  const AT = new Date('2026-05-23T14:00:00.000Z');

  it('a problem of a wider scope: where, and the expected recovery while it is ahead', () => {
    const effective = { reason: CascadeReason.LIVE_PROBLEM, scope: Scope.GLOBAL, scopeId: null, until: new Date('2026-05-23T15:00:00Z') };
    expect(head({ ...tenantEntryOk, effectiveStatus: ToolStatus.DOWN, effective })).toBe(
      'jira_search is DOWN for tenant acme (DOWN for everyone, expected back at 15:00 UTC; its entry says OK)',
    );
    expect(
      head({ ...tenantEntryOk, effectiveStatus: ToolStatus.DOWN, effective: { ...effective, until: new Date('2026-05-23T13:00:00Z') } }),
    ).toBe('jira_search is DOWN for tenant acme (DOWN for everyone; its entry says OK)');
  });

  it("a pin, the scope's own or a wider one, with its end", () => {
    const until = new Date('2026-05-23T16:30:00Z');
    const own = { reason: CascadeReason.PINNED, scope: Scope.TENANT, scopeId: 'acme', until };
    expect(head({ ...tenantEntryOk, status: ToolStatus.DOWN, effectiveStatus: ToolStatus.OK, effective: own })).toBe(
      'jira_search is OK for tenant acme (pinned OK until 16:30 UTC; its entry says DOWN)',
    );
    const wider = { ...own, scope: Scope.GLOBAL, scopeId: null };
    expect(head({ ...tenantEntryOk, effectiveStatus: ToolStatus.DOWN, effective: wider })).toBe(
      'jira_search is DOWN for tenant acme (pinned DOWN for everyone until 16:30 UTC; its entry says OK)',
    );
  });

  it('a window in force', () => {
    const effective = { reason: CascadeReason.MAINTENANCE, scope: Scope.GLOBAL, scopeId: null, until: new Date('2026-05-23T15:00:00Z') };
    expect(head({ ...tenantEntryOk, effectiveStatus: ToolStatus.DOWN, effective })).toBe(
      'jira_search is DOWN for tenant acme (under maintenance for everyone until 15:00 UTC; its entry says OK)',
    );
  });

  it('nothing more when the entry says what the scope reads as; an event stored before the source was kept reads as a pin', () => {
    const effective = { reason: CascadeReason.LIVE_PROBLEM, scope: Scope.TENANT, scopeId: 'acme', until: null };
    expect(head({ ...tenantEntryOk, status: ToolStatus.DOWN, effectiveStatus: ToolStatus.DOWN, effective })).toBe(
      'jira_search is DOWN for tenant acme',
    );
    expect(head({ ...tenantEntryOk, effectiveStatus: ToolStatus.DOWN, effective: null })).toBe(
      'jira_search is DOWN for tenant acme (pinned DOWN; its entry says OK)',
    );
  });
});
