import { Webhook } from 'standardwebhooks';
import { HealthEvent, HealthEventType } from './health-events';
import { Scope } from './scope';
import { ToolStatus } from './tool-status';
import { ToolErrorCode } from './tool-error-code';
import { ToolHealthClassification } from './classification';
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
  slackText,
  validateWebhookUrl,
  webhookIdOf,
} from './webhooks';
import { HOSTILE_RESOLVED_ADDRESSES, HOSTILE_URL_HOSTS, PUBLIC_ADDRESSES, PUBLIC_URL_HOSTS } from '../../test/factories/hostile-targets';

const NOW = new Date('2026-05-23T14:00:00.000Z');
const EVERYTHING: WebhookFilter = { eventTypes: [], toolNames: [], scopes: [], tenantIds: [] };

function statusChanged(extra: Partial<HealthEvent> = {}, payload: Record<string, unknown> = {}): HealthEvent {
  return {
    id: 'GLOBAL::jira_search:0:3:STATUS_CHANGED',
    docId: 'GLOBAL::jira_search',
    scope: Scope.GLOBAL,
    scopeId: null,
    toolName: 'jira_search',
    status: ToolStatus.DOWN,
    effectiveStatus: ToolStatus.DOWN,
    tenantId: null,
    at: NOW,
    type: HealthEventType.STATUS_CHANGED,
    payload: {
      previousStatus: ToolStatus.OK,
      expectedRecoveryAt: new Date('2026-05-23T14:30:00Z'),
      code: ToolErrorCode.BACKEND_FAILED,
      classification: null,
      note: null,
      by: null,
      ...payload,
    },
    ...extra,
  } as HealthEvent;
}

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

describe('the Slack text (P186)', () => {
  it('states a signal beside the status it leaves unchanged', () => {
    const signal = (type: HealthEventType, payload: Record<string, unknown>) =>
      ({ ...statusChanged(), status: ToolStatus.OK, effectiveStatus: ToolStatus.OK, type, payload }) as unknown as HealthEvent;
    const base = { recentCalls: null, recentSuccessRate: null, usualSuccessRate: null, recentP95Ms: null, usualP95Ms: null };
    expect(
      slackText(
        signal(HealthEventType.SIGNAL_STARTED, { ...base, signal: 'SLOW', text: 'slow right now — about 9 s per call, usually about 1 s' }),
        NOW,
        'UTC',
      ),
    ).toBe('jira_search is OK at GLOBAL — slow right now — about 9 s per call, usually about 1 s');
    expect(slackText(signal(HealthEventType.SIGNAL_ENDED, { ...base, signal: 'SLOW', text: null }), NOW, 'UTC')).toBe(
      'jira_search is OK at GLOBAL — no longer slow',
    );
  });

  it('says what happened, where and when it is expected back', () => {
    const event = {
      ...statusChanged(),
      type: HealthEventType.INBOX_ITEM,
      payload: {
        userId: null,
        classification: ToolHealthClassification.TECHNICALLY_BROKEN,
        note: 'HTTP 503 from Jira',
        by: 'agrajag',
        code: null,
      },
    } as HealthEvent;
    expect(slackText(event, NOW, 'UTC')).toBe('jira_search is DOWN at GLOBAL (TECHNICALLY_BROKEN: HTTP 503 from Jira)');
    expect(slackText(statusChanged(), NOW, 'UTC')).toBe(
      'jira_search is DOWN at GLOBAL — expected back at 14:30 UTC (BACKEND_FAILED, was OK)',
    );
    expect(slackText(statusChanged({ scope: Scope.USER, scopeId: 'alice' }), NOW, 'Europe/Berlin')).toBe(
      'jira_search is DOWN at USER alice — expected back at 16:30 CEST (BACKEND_FAILED, was OK)',
    );
  });

  it('gives the status the entry reads as, why and who, and a pin as a pin', () => {
    const verdict = statusChanged(
      {},
      { classification: ToolHealthClassification.TECHNICALLY_BROKEN, note: 'MCP connection closed', by: 'agrajag-7' },
    );
    expect(slackText(verdict, NOW, 'UTC')).toBe(
      'jira_search is DOWN at GLOBAL — expected back at 14:30 UTC (TECHNICALLY_BROKEN: MCP connection closed, was OK) — by agrajag-7',
    );
    const system = statusChanged({}, { note: 'MCP connection closed', by: 'system:mcp-router' });
    expect(slackText(system, NOW, 'UTC')).toBe(
      'jira_search is DOWN at GLOBAL — expected back at 14:30 UTC (MCP connection closed, was OK) — by system:mcp-router',
    );
    // Under a pin the stored status is not what callers get.
    const pinnedOver = statusChanged(
      { status: ToolStatus.OK, effectiveStatus: ToolStatus.DOWN },
      { previousStatus: ToolStatus.DOWN, expectedRecoveryAt: null },
    );
    expect(slackText(pinnedOver, NOW, 'UTC')).toMatch(/^jira_search is DOWN \(stored OK\) at GLOBAL/);
    const pin = {
      ...statusChanged({ status: ToolStatus.OK, effectiveStatus: ToolStatus.DOWN }),
      type: HealthEventType.PIN_SET,
      payload: { pinnedStatus: ToolStatus.DOWN, until: new Date('2026-05-23T19:00:00Z'), reason: 'vendor outage', by: 'admin:ops' },
    } as HealthEvent;
    expect(slackText(pin, NOW, 'UTC')).toBe('jira_search is pinned DOWN at GLOBAL by admin:ops until 19:00 UTC (vendor outage); stored OK');
    expect(slackText(pin, NOW, 'UTC')).not.toMatch(/expected back/);
    // With the service's public URL, a link to the console ends the line.
    expect(slackText(pin, NOW, 'UTC', 'https://tool-health.example.com/console')).toMatch(
      / — <https:\/\/tool-health\.example\.com\/console\|open the console>$/,
    );
  });
});
