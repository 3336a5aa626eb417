import { DO_NOT_CALL_HINT, annotateTool, annotationSuffix, departedClientTools, isPlainlyUsable, withSuffix } from './annotation';
import { ToolManifest, ToolSafety } from './audience';
import { evaluateCall } from './call-evaluation';
import { CascadeReason } from './cascade';
import { ToolHealthClassification } from './classification';
import { newDocument } from './health-entry';
import { MaintenanceWindow, maintenanceFor, scheduleWindow } from './maintenance-window';
import { Scope } from './scope';
import { markAvailable, markUnavailable } from './system-writes';
import { ToolErrorCode } from './tool-error-code';
import { ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';

const NOW = new Date('2026-05-23T14:30:00Z');
const CREATED = new Date('2026-05-23T08:00:00Z');
const CONTEXT = { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' };
const TOOL = 'mcp_search';
const at = (hhmm: string, day = '2026-05-23') => new Date(`${day}T${hhmm}:00Z`);

function doc(scope: Scope, scopeId: string | null, patch: Partial<ToolHealthDocument> = {}, toolName = TOOL): ToolHealthDocument {
  return { ...newDocument({ scope, scopeId, toolName }, CREATED), ...patch };
}

const down = (patch: Partial<ToolHealthDocument> = {}): Partial<ToolHealthDocument> => ({
  status: ToolStatus.DOWN,
  since: at('14:00'),
  code: ToolErrorCode.BACKEND_FAILED,
  ...patch,
});
const degraded = (patch: Partial<ToolHealthDocument> = {}): Partial<ToolHealthDocument> => ({
  status: ToolStatus.DEGRADED,
  since: at('10:00'),
  code: ToolErrorCode.BACKEND_FAILED,
  ...patch,
});
const pinned = (status: ToolStatus.OK | ToolStatus.DOWN, until = at('18:00')) => ({
  pin: { status, until, reason: 'maintenance', by: 'admin:ops', at: at('12:00') },
});

const effectiveOf = (docs: ToolHealthDocument[]) => evaluateCall({ toolName: TOOL, context: CONTEXT, entries: docs, now: NOW });
const cooldown = {
  errorSignature: 'http-403',
  userId: 'alice',
  nextSpawnAllowedAt: at('14:00', '2026-05-24'),
  hits: 7,
  lastClassification: ToolHealthClassification.USER_PERMISSION,
  lastTriggeredAt: at('14:02'),
  windowMs: 86_400_000,
};

describe('annotationSuffix', () => {
  it.each<[string, ToolHealthDocument[], string | null]>([
    ['no entry: OK', [], null],
    ['an OK entry holding an active cooldown', [doc(Scope.USER, 'alice', { cooldowns: [cooldown] })], null],
    [
      'DEGRADED, last failure 2 min ago',
      [doc(Scope.PROJECT, 'p1', degraded({ lastFailureAt: at('14:28') }))],
      'intermittent — last failure 2 min ago, retry tolerated',
    ],
    [
      'DEGRADED, minutes floored',
      [doc(Scope.PROJECT, 'p1', degraded({ lastFailureAt: new Date('2026-05-23T14:27:01Z') }))],
      'intermittent — last failure 2 min ago, retry tolerated',
    ],
    [
      'DEGRADED, 30 s ago reads as 1 min',
      [doc(Scope.PROJECT, 'p1', degraded({ lastFailureAt: new Date('2026-05-23T14:29:30Z') }))],
      'intermittent — last failure 1 min ago, retry tolerated',
    ],
    [
      'DEGRADED, failure stamped in the future (clock skew) reads as 1 min',
      [doc(Scope.PROJECT, 'p1', degraded({ lastFailureAt: at('14:35') }))],
      'intermittent — last failure 1 min ago, retry tolerated',
    ],
    [
      'DEGRADED without lastFailureAt counts from since',
      [doc(Scope.PROJECT, 'p1', degraded({ lastFailureAt: null }))],
      'intermittent — last failure 270 min ago, retry tolerated',
    ],
    [
      'DEGRADED with a future estimate still gets the suffix',
      [doc(Scope.PROJECT, 'p1', degraded({ lastFailureAt: at('14:25'), expectedRecoveryAt: at('14:45') }))],
      'intermittent — last failure 5 min ago, retry tolerated',
    ],
    ['DEGRADED RETESTING', [doc(Scope.PROJECT, 'p1', degraded({ expectedRecoveryAt: at('14:20') }))], null],
    [
      'DOWN, expected back today',
      [doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: at('15:00') }))],
      'currently unavailable — expected back at 15:00',
    ],
    [
      'DOWN, expected back tomorrow',
      [doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: at('09:00', '2026-05-24') }))],
      'currently unavailable — expected back at 2026-05-24 09:00',
    ],
    ['DOWN without estimate', [doc(Scope.PROJECT, 'p1', down())], 'unavailable since 14:00'],
    ['DOWN since yesterday', [doc(Scope.PROJECT, 'p1', down({ since: at('22:15', '2026-05-22') }))], 'unavailable since 2026-05-22 22:15'],
    ['DOWN with estimate exactly now: RETESTING', [doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: NOW }))], null],
    ['DOWN RETESTING', [doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: at('14:10') }))], null],
    [
      'a RETESTING narrow entry yields to a live wider one',
      [doc(Scope.SESSION, 's1', down({ expectedRecoveryAt: at('14:10') })), doc(Scope.GLOBAL, null, down({ since: at('13:00') }))],
      'unavailable since 13:00',
    ],
    [
      'the narrower live problem wins',
      [doc(Scope.USER, 'alice', degraded({ lastFailureAt: at('14:27') })), doc(Scope.GLOBAL, null, down())],
      'intermittent — last failure 3 min ago, retry tolerated',
    ],
    [
      'pinned DOWN over an OK entry: back when the pin ends',
      [doc(Scope.TENANT, 't1', pinned(ToolStatus.DOWN))],
      'currently unavailable — expected back at 18:00',
    ],
    [
      'pinned DOWN over a DEGRADED entry: back when the pin ends',
      [doc(Scope.TENANT, 't1', { ...degraded(), ...pinned(ToolStatus.DOWN) })],
      'currently unavailable — expected back at 18:00',
    ],
    [
      'pinned DOWN over own DOWN expected later than the pin',
      [doc(Scope.TENANT, 't1', { ...down({ expectedRecoveryAt: at('20:00') }), ...pinned(ToolStatus.DOWN) })],
      'currently unavailable — expected back at 20:00',
    ],
    [
      'pinned DOWN over own DOWN expected before the pin ends',
      [doc(Scope.TENANT, 't1', { ...down({ expectedRecoveryAt: at('16:00') }), ...pinned(ToolStatus.DOWN) })],
      'currently unavailable — expected back at 18:00',
    ],
    [
      'pinned DOWN over own DOWN whose estimate passed',
      [doc(Scope.TENANT, 't1', { ...down({ expectedRecoveryAt: at('14:10') }), ...pinned(ToolStatus.DOWN) })],
      'currently unavailable — expected back at 18:00',
    ],
    [
      'pinned DOWN over own DOWN without estimate',
      [doc(Scope.TENANT, 't1', { ...down({ since: at('09:00') }), ...pinned(ToolStatus.DOWN) })],
      'unavailable since 09:00',
    ],
    ['pinned OK hides a wider DOWN', [doc(Scope.TENANT, 't1', pinned(ToolStatus.OK)), doc(Scope.GLOBAL, null, down())], null],
    ['an expired pin no longer counts', [doc(Scope.TENANT, 't1', pinned(ToolStatus.DOWN, at('14:00')))], null],
  ])('%s', (_case, docs, expected) => {
    expect(annotationSuffix(effectiveOf(docs), NOW, 'UTC')).toBe(expected);
  });

  it.each([
    ['Europe/Berlin', 'unavailable since 16:00'],
    ['America/New_York', 'unavailable since 10:00'],
  ])('writes clock times in the turn zone %s', (zone, expected) => {
    expect(annotationSuffix(effectiveOf([doc(Scope.PROJECT, 'p1', down())]), NOW, zone)).toBe(expected);
  });

  it('dates an estimate on the next local day though it is the same UTC day', () => {
    const effective = effectiveOf([doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: at('22:30') }))]);
    expect(annotationSuffix(effective, NOW, 'Europe/Berlin')).toBe('currently unavailable — expected back at 2026-05-24 00:30');
  });
});

describe('withSuffix', () => {
  it.each<[string, string | null, string]>([
    ['Search the index.', null, 'Search the index.'],
    ['Search the index.', 'unavailable since 14:00', 'Search the index. (unavailable since 14:00)'],
    ['Search the index.  \n', 'unavailable since 14:00', 'Search the index. (unavailable since 14:00)'],
    ['', 'unavailable since 14:00', 'unavailable since 14:00'],
    ['   ', 'unavailable since 14:00', 'unavailable since 14:00'],
  ])('%j + %j', (description, suffix, expected) => {
    expect(withSuffix(description, suffix)).toBe(expected);
  });
});

describe('annotateTool', () => {
  const manifest: ToolManifest = { name: TOOL, description: 'Search the index.', safety: ToolSafety.READ_ONLY };

  it('lists an OK tool unchanged', () => {
    expect(annotateTool(manifest, effectiveOf([]), NOW, 'UTC')).toEqual({
      name: TOOL,
      description: 'Search the index.',
      suffix: null,
      status: ToolStatus.OK,
      retesting: false,
      doNotCall: false,
      hint: null,
      reason: { reason: CascadeReason.DEFAULT_OK, matched: null, shadowed: [], why: expect.any(Array) },
    });
  });

  it('marks a DOWN tool do-not-call and says why', () => {
    const tool = annotateTool(manifest, effectiveOf([doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: at('15:00') }))]), NOW, 'UTC');
    expect(tool).toMatchObject({
      description: 'Search the index. (currently unavailable — expected back at 15:00)',
      suffix: 'currently unavailable — expected back at 15:00',
      status: ToolStatus.DOWN,
      retesting: false,
      doNotCall: true,
      hint: DO_NOT_CALL_HINT,
    });
    expect(tool.reason.reason).toBe(CascadeReason.LIVE_PROBLEM);
    expect(tool.reason.matched).toMatchObject({ scope: Scope.PROJECT, scopeId: 'p1', until: at('15:00') });
    expect(DO_NOT_CALL_HINT).toBe('do not call, plan without it');
  });

  it('lets a RETESTING tool be called, without a suffix', () => {
    const tool = annotateTool(manifest, effectiveOf([doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: at('14:10') }))]), NOW, 'UTC');
    expect(tool).toMatchObject({
      description: 'Search the index.',
      suffix: null,
      status: ToolStatus.DOWN,
      retesting: true,
      doNotCall: false,
      hint: null,
    });
  });

  it('lets a DEGRADED tool be called, with its suffix', () => {
    const tool = annotateTool(manifest, effectiveOf([doc(Scope.PROJECT, 'p1', degraded({ lastFailureAt: at('14:28') }))]), NOW, 'UTC');
    expect(tool).toMatchObject({ status: ToolStatus.DEGRADED, doNotCall: false, hint: null });
    expect(tool.description).toBe('Search the index. (intermittent — last failure 2 min ago, retry tolerated)');
  });

  it('refuses health computed for another tool', () => {
    const other = evaluateCall({ toolName: 'other_tool', context: CONTEXT, entries: [], now: NOW });
    expect(() => annotateTool(manifest, other, NOW, 'UTC')).toThrow(/other_tool/);
  });
});

describe('isPlainlyUsable (D23)', () => {
  const manifest: ToolManifest = { name: TOOL, description: 'Search the index.' };
  const cases: [string, ToolHealthDocument[], boolean][] = [
    ['nothing stored', [], true],
    ['a cooldown only (the LLM still uses the tool)', [doc(Scope.USER, 'alice', { cooldowns: [cooldown] })], true],
    ['RETESTING: the next call tries it', [doc(Scope.PROJECT, 'p1', down({ expectedRecoveryAt: at('14:10') }))], true],
    ['DOWN', [doc(Scope.PROJECT, 'p1', down())], false],
    ['DEGRADED (a suffix)', [doc(Scope.PROJECT, 'p1', degraded())], false],
    ['pinned OK over a DOWN', [doc(Scope.PROJECT, 'p1', { ...down(), ...pinned(ToolStatus.OK) })], true],
    ['pinned DOWN', [doc(Scope.GLOBAL, null, pinned(ToolStatus.DOWN))], false],
  ];
  it.each(cases)('%s', (_name, docs, plain) => {
    const effective = effectiveOf(docs);
    expect(isPlainlyUsable(effective, NOW, 'UTC')).toBe(plain);
    // The same line the full annotation gives: no suffix and callable, exactly when plain.
    const tool = annotateTool(manifest, effective, NOW, 'UTC');
    expect(tool.suffix === null && !tool.doNotCall).toBe(plain);
  });
});

describe('departedClientTools', () => {
  const disconnectedAt = at('14:00');
  const disconnect = (toolName: string, description: string | null) =>
    markUnavailable({
      key: { scope: Scope.SESSION, scopeId: 's1', toolName },
      source: 'foot-disconnect',
      now: disconnectedAt,
      historyLimit: 20,
      code: ToolErrorCode.BACKEND_UNREACHABLE,
      description,
    })(null)!;

  const readFile = disconnect('client_file_read', 'Read a file on the client machine.');
  const shell = disconnect('client_shell', null);
  const stillSent = disconnect('client_file_write', 'Write a file.');
  const reconnected = markAvailable({
    key: { scope: Scope.SESSION, scopeId: 's1', toolName: 'client_ide' },
    source: 'foot-connect',
    now: at('14:20'),
    historyLimit: 20,
  })(disconnect('client_ide', 'IDE bridge.'))!;
  const pinnedOk = { ...disconnect('client_pinned', 'Pinned.'), ...pinned(ToolStatus.OK) };
  const retesting = { ...disconnect('client_retest', 'Retest.'), expectedRecoveryAt: at('14:10') };
  const userScoped = doc(Scope.USER, 'alice', down(), 'client_user_scoped');

  it('lists SESSION tools that are DOWN and missing from the input, sorted, with their stored description', () => {
    const departed = departedClientTools(
      [shell, stillSent, userScoped, reconnected, readFile, pinnedOk, retesting],
      new Set(['client_file_write', 'mcp_search']),
      NOW,
      'UTC',
    );
    expect(departed.map((t) => t.name)).toEqual(['client_file_read', 'client_shell']);
    expect(departed[0]).toMatchObject({
      description: 'Read a file on the client machine. (unavailable since 14:00)',
      suffix: 'unavailable since 14:00',
      status: ToolStatus.DOWN,
      doNotCall: true,
      hint: DO_NOT_CALL_HINT,
    });
    expect(departed[0].reason.matched).toMatchObject({
      scope: Scope.SESSION,
      scopeId: 's1',
      by: 'system:foot-disconnect',
      since: disconnectedAt,
    });
    expect(departed[1].description).toBe('unavailable since 14:00');
  });

  it('writes the time in the turn zone', () => {
    expect(departedClientTools([readFile], new Set(), NOW, 'Europe/Berlin')[0].suffix).toBe('unavailable since 16:00');
  });

  it('lists nothing once every tool is sent again', () => {
    expect(departedClientTools([readFile, shell], new Set(['client_file_read', 'client_shell']), NOW, 'UTC')).toEqual([]);
  });

  describe('with maintenance windows (P102)', () => {
    const window = (scope: Scope, scopeId: string | null, from: Date, until: Date, toolName = 'client_file_read'): MaintenanceWindow =>
      scheduleWindow({ scope, scopeId, toolName, from, until, reason: 'client rollout' }, `w-${scope}`, 'admin:ops', CREATED);
    // The windows of the caller's whole context, as the manifest read passes them.
    const departedWith = (windows: MaintenanceWindow[], docs = [readFile, shell], timeZone = 'UTC') =>
      departedClientTools(docs, new Set(), NOW, timeZone, (name) => maintenanceFor(windows, name, CONTEXT, NOW, 86_400_000));

    // Changed with D20: the disconnect under the window has no known end, so neither has "back at".
    it('reads a departed tool under a window in force at SESSION scope as under maintenance', () => {
      const [tool, other] = departedWith([window(Scope.SESSION, 's1', at('14:10'), at('15:00'))]);
      expect(tool).toMatchObject({
        name: 'client_file_read',
        suffix: 'under maintenance — end unknown',
        description: 'Read a file on the client machine. (under maintenance — end unknown)',
        status: ToolStatus.DOWN,
        doNotCall: true,
        hint: DO_NOT_CALL_HINT,
      });
      expect(tool.reason).toMatchObject({ reason: CascadeReason.MAINTENANCE, matched: { scope: Scope.SESSION, by: 'admin:ops' } });
      // Another tool of the session is not covered by the window.
      expect(other).toMatchObject({ name: 'client_shell', suffix: 'unavailable since 14:00' });
    });

    // Changed with D20: a departed tool's disconnect has no estimate, so the window's end is not its back-at.
    it('does not name the window end as back-at while the disconnect beneath has no known end', () => {
      const [tool] = departedWith([window(Scope.SESSION, 's1', at('14:10'), at('23:00'))], [readFile], 'Europe/Berlin');
      expect(tool.suffix).toBe('under maintenance — end unknown');
    });

    it.each([
      [Scope.USER, 'alice'],
      [Scope.TENANT, 't1'],
      [Scope.GLOBAL, null],
    ])('keeps the disconnect in front of a window in force at the wider %s scope, as the cascade does', (scope, scopeId) => {
      const [tool] = departedWith([window(scope, scopeId, at('14:10'), at('15:00'))], [readFile]);
      expect(tool).toMatchObject({ suffix: 'unavailable since 14:00', doNotCall: true });
      expect(tool.reason.reason).toBe(CascadeReason.LIVE_PROBLEM);
    });

    it('appends a window coming within the lookahead, at any scope of the context', () => {
      const [tool] = departedWith([window(Scope.TENANT, 't1', at('18:00'), at('20:00'))], [readFile]);
      expect(tool.suffix).toBe('unavailable since 14:00; maintenance planned 18:00–20:00');
    });

    it('ignores windows of another session or tool, and lists no entry the stored evidence does not (a reconnect)', () => {
      const windows = [
        window(Scope.SESSION, 's2', at('14:10'), at('15:00')),
        window(Scope.SESSION, 's1', at('14:10'), at('15:00'), 'client_other'),
        window(Scope.SESSION, 's1', at('14:10'), at('15:00'), 'client_ide'),
      ];
      const departed = departedWith(windows, [readFile, reconnected]);
      expect(departed.map((t) => [t.name, t.suffix])).toEqual([['client_file_read', 'unavailable since 14:00']]);
    });
  });
});
