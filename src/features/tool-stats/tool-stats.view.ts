import { Float, Int } from '@nestjs/graphql';
import { OutcomeTally, faultFailures, judgedCalls, percentile, successRate } from '../../domain/outcome-stats';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolSignals, signalText } from '../../domain/tool-signals';
import { UptimeDay } from '../../domain/uptime';
import { INSTANT, NULLABLE_STRING, ViewField, ViewFieldOptions, ViewType, enumView } from '../../shapes/view-field';

// Issue 39: how a tool's calls have been going, for REST and GraphQL alike (one class per shape, P115).

const INT: ViewFieldOptions = { type: () => Int, openapi: { type: 'integer' } };
const RATIO: ViewFieldOptions = { type: () => Float, nullable: true, openapi: { type: 'number', minimum: 0, maximum: 1 } };
const SHARE: ViewFieldOptions = { type: () => Float, openapi: { type: 'number', minimum: 0, maximum: 1 } };
const SHARE_REQUIRED: ViewFieldOptions = { type: () => Float, openapi: { type: 'number', minimum: 0, maximum: 1 } };
// Durations in whole milliseconds: a percentile is known to within its bucket anyway.
const MS_REQUIRED: ViewFieldOptions = INT;
const MS: ViewFieldOptions = { type: () => Int, nullable: true, openapi: { type: 'integer' } };

@ViewType('FailingOftenSignal', "The tool's recent success rate is well below its usual one.")
export class FailingOftenSignalView {
  @ViewField('Calls judged in the recent minutes (successes and failures that were the tool’s fault).', INT) recentCalls: number;
  @ViewField('How many of them worked.', INT) recentSuccesses: number;
  @ViewField('Share of them that worked, 0 … 1.', SHARE_REQUIRED) recentSuccessRate: number;
  @ViewField('The share that usually works (the day before), 0 … 1.', SHARE_REQUIRED)
  usualSuccessRate: number;
}

@ViewType('SlowSignal', "The tool's recent calls take far longer than usual (95th percentiles).")
export class SlowSignalView {
  @ViewField('Calls in the recent minutes that carried a duration.', INT) recentCalls: number;
  @ViewField('95th percentile of their durations, ms (exact to within 20 %).', MS_REQUIRED)
  recentP95Ms: number;
  @ViewField('The usual 95th percentile (the day before), ms.', MS_REQUIRED) usualP95Ms: number;
}

@ViewType(
  'ToolSignals',
  "Evidence from the calls' outcomes, beside the status: failing often, slow. It never changes the status, which stays with verdicts and system writes.",
)
export class ToolSignalsView {
  @ViewField('Set while the recent success rate is well below the usual one.', {
    type: () => FailingOftenSignalView,
    nullable: true,
    openapi: { type: FailingOftenSignalView },
  })
  failingOften: FailingOftenSignalView | null;
  @ViewField('Set while recent calls take far longer than usual.', {
    type: () => SlowSignalView,
    nullable: true,
    openapi: { type: SlowSignalView },
  })
  slow: SlowSignalView | null;
  @ViewField(
    'The signals in words, as the LLM reads them in the annotation, e.g. "slow right now — about 9 s per call, usually about 1 s".',
    NULLABLE_STRING,
  )
  text: string | null;
}

/** The signals as answered, or null when none is on. */
export function toSignalsView(signals: ToolSignals | null | undefined): ToolSignalsView | null {
  if (!signals || (!signals.failingOften && !signals.slow)) return null;
  return {
    failingOften: signals.failingOften ? { ...signals.failingOften } : null,
    // Whole milliseconds: the p95 is known to within its bucket anyway.
    slow: signals.slow
      ? {
          recentCalls: signals.slow.recentCalls,
          recentP95Ms: Math.round(signals.slow.recentP95Ms),
          usualP95Ms: Math.round(signals.slow.usualP95Ms),
        }
      : null,
    text: signalText(signals),
  };
}

@ViewType('ToolSignalsEntry', 'A tool with a signal on now, and its signals.')
export class ToolSignalsEntryView {
  @ViewField('The tool.') toolName: string;
  @ViewField('Its signals.', { type: () => ToolSignalsView, openapi: { type: ToolSignalsView } }) signals: ToolSignalsView;
}

@ViewType('FailureCount', 'Failures with one dispatch code.')
export class FailureCountView {
  @ViewField('The dispatch code.', enumView(ToolErrorCode, 'ToolErrorCode')) code: ToolErrorCode;
  @ViewField('How many.', INT) count: number;
}

@ViewType('CallStats', "A period's call outcomes of one tool.")
export class CallStatsView {
  @ViewField('Calls that said something about the tool: successes and failures that were its fault.', INT) calls: number;
  @ViewField('Successful calls.', INT) successes: number;
  @ViewField("Failures that were the tool's fault (backend unreachable or failing).", INT) failures: number;
  @ViewField('Every failure reported, by code (NOT_REGISTERED and DISALLOWED too).', {
    type: () => [FailureCountView],
    openapi: { type: [FailureCountView] },
  })
  failuresByCode: FailureCountView[];
  @ViewField('Successes per call, 0 … 1; null without calls.', RATIO) successRate: number | null;
  @ViewField('Calls that reported their duration.', INT) timedCalls: number;
  @ViewField('Median duration, ms (exact to within 20 %); null without durations.', MS) p50Ms: number | null;
  @ViewField('95th percentile duration, ms (exact to within 20 %).', MS) p95Ms: number | null;
  @ViewField('99th percentile duration, ms (exact to within 20 %).', MS) p99Ms: number | null;
  @ViewField('Mean duration, ms.', MS) meanMs: number | null;
}

export function wholeMs(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms);
}

export function toCallStatsView(t: OutcomeTally): CallStatsView {
  return {
    calls: judgedCalls(t),
    successes: t.ok,
    failures: faultFailures(t),
    failuresByCode: (Object.entries(t.codes) as [ToolErrorCode, number][])
      .filter(([, n]) => n > 0)
      .map(([code, count]) => ({ code, count })),
    successRate: successRate(t),
    timedCalls: t.timed,
    p50Ms: wholeMs(percentile(t, 0.5)),
    p95Ms: wholeMs(percentile(t, 0.95)),
    p99Ms: wholeMs(percentile(t, 0.99)),
    meanMs: t.timed > 0 ? Math.round(t.sumMs / t.timed) : null,
  };
}

@ViewType('HourStats', "One hour's call outcomes.")
export class HourStatsView {
  @ViewField('The start of the hour.', INSTANT) start: Date;
  @ViewField('Calls judged.', INT) calls: number;
  @ViewField('Successes per call, 0 … 1; null without calls.', RATIO) successRate: number | null;
  @ViewField('95th percentile duration, ms; null without durations.', MS) p95Ms: number | null;
}

@ViewType('ToolStats', 'How the calls of a tool have been going: the last hour, the last day hour by hour, and the signals.')
export class ToolStatsView {
  @ViewField('The tool.') toolName: string;
  @ViewField("The tenant whose calls these are; null = everyone's.", NULLABLE_STRING) tenantId: string | null;
  @ViewField('The last 60 minutes.', { type: () => CallStatsView, openapi: { type: CallStatsView } }) lastHour: CallStatsView;
  @ViewField('The current hour and the 23 before it.', { type: () => CallStatsView, openapi: { type: CallStatsView } })
  lastDay: CallStatsView;
  @ViewField('The same 24 hours one by one, oldest first.', { type: () => [HourStatsView], openapi: { type: [HourStatsView] } })
  hours: HourStatsView[];
  @ViewField('The signals on now for everyone (GLOBAL); null when none is.', {
    type: () => ToolSignalsView,
    nullable: true,
    openapi: { type: ToolSignalsView },
  })
  signals: ToolSignalsView | null;
  @ViewField('Counts reach the database every few seconds (STATS_FLUSH_MS); the newest calls may not be in yet.', INSTANT)
  asOf: Date;
}

@ViewType('UptimeDay', 'One UTC day of a tool for everyone: how much of it the tool was usable, and how its calls went.')
export class UptimeDayView {
  @ViewField('The day, YYYY-MM-DD (UTC).') day: string;
  @ViewField('Share of the day (so far, for today) the tool was usable: OK, DEGRADED or being retested, 0 … 1.', SHARE) usable: number;
  @ViewField('The part of usable that was DEGRADED (intermittent), 0 … 1.', SHARE) degraded: number;
  @ViewField('Share of the day it was DOWN for everyone (a verdict, a system write or a pin), 0 … 1.', SHARE) down: number;
  @ViewField('Share of the day under planned maintenance, counted apart from outages, 0 … 1.', SHARE) maintenance: number;
  @ViewField('Share of the day its history no longer remembers, 0 … 1.', SHARE) unknown: number;
  @ViewField('Usable time / (usable + down time), 0 … 1: the uptime leaving maintenance and unknown time aside; null when neither.', RATIO)
  uptime: number | null;
  @ViewField('Calls judged that day.', INT) calls: number;
  @ViewField('Successes per call that day, 0 … 1; null without calls.', RATIO) successRate: number | null;
  @ViewField('95th percentile duration that day, ms; null without durations.', MS) p95Ms: number | null;
}

export function toUptimeDayView(d: UptimeDay): UptimeDayView {
  return {
    day: d.day,
    usable: d.usable,
    degraded: d.degraded,
    down: d.down,
    maintenance: d.maintenance,
    unknown: d.unknown,
    uptime: d.uptime,
    calls: d.calls,
    successRate: d.successRate,
    p95Ms: wholeMs(d.p95Ms),
  };
}

@ViewType(
  'ToolUptime',
  'A tool’s days for everyone (GLOBAL), oldest first: usable time from its status history, pins and maintenance, and its calls.',
)
export class ToolUptimeView {
  @ViewField('The tool.') toolName: string;
  @ViewField('One entry per UTC day, oldest first; the last is today so far.', {
    type: () => [UptimeDayView],
    openapi: { type: [UptimeDayView] },
  })
  days: UptimeDayView[];
  @ViewField('Usable time over all the days, leaving maintenance and unknown time aside; null when none.', RATIO)
  uptime: number | null;
  @ViewField('Successes over calls across all the days; null without calls.', RATIO)
  successRate: number | null;
}
