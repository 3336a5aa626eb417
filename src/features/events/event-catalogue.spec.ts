import { ToolHealthClassification } from '../../domain/classification';
import { HealthEvent, HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { SignalKind } from '../../domain/tool-signals';
import { ToolStatus } from '../../domain/tool-status';
import { slackText } from '../../domain/webhooks';
import { aStatusChange as statusChanged } from '../../../test/factories';
import { EVENT_CATALOGUE, EVENT_TYPES, EVENT_VIEW_OF, PAYLOAD_VIEWS, eventSummary, payloadViewOf } from './event-catalogue';

const NOW = new Date('2026-05-23T14:00:00.000Z');

/** The Slack body's text as the dispatcher writes it. */
function slack(event: HealthEvent, now: Date, timeZone: string, consoleUrl: string | null = null): string {
  return slackText(eventSummary(event, now, timeZone), consoleUrl);
}

describe('the event catalogue', () => {
  it('has a row for every event type, and the derived tables follow it', () => {
    expect(new Set(EVENT_TYPES)).toEqual(new Set(Object.values(HealthEventType)));
    for (const type of EVENT_TYPES) {
      expect(EVENT_CATALOGUE[type].description.length).toBeGreaterThan(0);
      expect(PAYLOAD_VIEWS).toContain(payloadViewOf(type));
      expect(EVENT_VIEW_OF[type].name).toBe(payloadViewOf(type).name.replace(/PayloadView$/, 'EventView'));
    }
  });
});

describe('the Slack text (P186)', () => {
  it('states a signal beside the status it leaves unchanged', () => {
    const signal = (type: HealthEventType, payload: Record<string, unknown>) =>
      ({ ...statusChanged(), status: ToolStatus.OK, effectiveStatus: ToolStatus.OK, type, payload }) as unknown as HealthEvent;
    const base = { recentCalls: null, recentSuccessRate: null, usualSuccessRate: null, recentP95Ms: null, usualP95Ms: null };
    expect(
      slack(
        signal(HealthEventType.SIGNAL_STARTED, {
          ...base,
          signal: SignalKind.SLOW,
          text: 'slow right now — about 9 s per call, usually about 1 s',
        }),
        NOW,
        'UTC',
      ),
    ).toBe('jira_search is OK for everyone, but slow right now — about 9 s per call, usually about 1 s');
    expect(slack(signal(HealthEventType.SIGNAL_ENDED, { ...base, signal: SignalKind.SLOW, text: null }), NOW, 'UTC')).toBe(
      'jira_search is OK for everyone — no longer slow',
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
    expect(slack(event, NOW, 'UTC')).toBe(
      'jira_search is DOWN for everyone: technically broken — HTTP 503 from Jira. Diagnosed by agrajag.',
    );
    expect(slack(statusChanged(), NOW, 'UTC')).toBe(
      'jira_search is DOWN for everyone, was OK: backend failed. Expected back at 14:30 UTC.',
    );
    expect(slack(statusChanged({ scope: Scope.USER, scopeId: 'alice' }), NOW, 'Europe/Berlin')).toBe(
      'jira_search is DOWN for user alice, was OK: backend failed. Expected back at 16:30 CEST.',
    );
  });

  it('gives the status the entry reads as, why and who, and a pin as a pin', () => {
    const verdict = statusChanged(
      {},
      { classification: ToolHealthClassification.TECHNICALLY_BROKEN, note: 'MCP connection closed', by: 'agrajag-7' },
    );
    expect(slack(verdict, NOW, 'UTC')).toBe(
      'jira_search is DOWN for everyone, was OK: technically broken — MCP connection closed. Expected back at 14:30 UTC. By agrajag-7.',
    );
    const system = statusChanged({}, { note: 'MCP connection closed', by: 'system:mcp-router' });
    expect(slack(system, NOW, 'UTC')).toBe(
      'jira_search is DOWN for everyone, was OK: backend failed — MCP connection closed. Expected back at 14:30 UTC. By system:mcp-router.',
    );
    // Under a pin the stored status is not what callers get.
    const pinnedOver = statusChanged(
      { status: ToolStatus.OK, effectiveStatus: ToolStatus.DOWN },
      { previousStatus: ToolStatus.DOWN, expectedRecoveryAt: null },
    );
    expect(slack(pinnedOver, NOW, 'UTC')).toMatch(/^jira_search is DOWN for everyone \(pinned DOWN; its entry says OK\)/);
    const pin = {
      ...statusChanged({ status: ToolStatus.OK, effectiveStatus: ToolStatus.DOWN }),
      type: HealthEventType.PIN_SET,
      payload: { pinnedStatus: ToolStatus.DOWN, until: new Date('2026-05-23T19:00:00Z'), reason: 'vendor outage', by: 'admin:ops' },
    } as HealthEvent;
    expect(slack(pin, NOW, 'UTC')).toBe(
      'jira_search is pinned DOWN for everyone by admin:ops until 19:00 UTC (vendor outage); its entry says OK',
    );
    expect(slack(pin, NOW, 'UTC')).not.toMatch(/expected back/);
    // With the service's public URL, a link to the console ends the line.
    expect(slack(pin, NOW, 'UTC', 'https://tool-health.example.com/console')).toMatch(
      / — <https:\/\/tool-health\.example\.com\/console\|open the console>$/,
    );
  });
});
