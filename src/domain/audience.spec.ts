import { FilterReason, TOOL_HEALTH_WRITER_ROLE, ToolManifest, ToolSafety, filterAudience } from './audience';

const tool = (name: string, safety?: ToolSafety, requiresEngineRoles?: string[]): ToolManifest => ({
  name,
  description: `${name} description`,
  safety,
  requiresEngineRoles,
});

const manifests: ToolManifest[] = [
  tool('client_file_read', ToolSafety.READ_ONLY),
  tool('tool_health_set_unavailable', ToolSafety.SAFE_PROBE, [TOOL_HEALTH_WRITER_ROLE]),
  tool('jira_create_issue', ToolSafety.MUTATING),
  tool('tool_probe_as_user', ToolSafety.SAFE_PROBE),
  tool('repair_restart', ToolSafety.MUTATING, [TOOL_HEALTH_WRITER_ROLE, 'repair-actor']),
  tool('mcp_search'),
  tool('empty_roles', ToolSafety.SAFE_PROBE, []),
];

const names = (list: { name: string }[]) => list.map((t) => t.name);

describe('filterAudience', () => {
  it('exports the writer role of §8', () => {
    expect(TOOL_HEALTH_WRITER_ROLE).toBe('tool-health-writer');
  });

  it.each([
    // [engine, roles, probeTurn, visible]
    ['arthur (no roles)', [], false, ['client_file_read', 'jira_create_issue', 'tool_probe_as_user', 'mcp_search', 'empty_roles']],
    [
      'agrajag (writer)',
      [TOOL_HEALTH_WRITER_ROLE],
      false,
      ['client_file_read', 'tool_health_set_unavailable', 'jira_create_issue', 'tool_probe_as_user', 'mcp_search', 'empty_roles'],
    ],
    ['agrajag, probe turn', [TOOL_HEALTH_WRITER_ROLE], true, ['tool_health_set_unavailable', 'tool_probe_as_user', 'empty_roles']],
    ['frankie (writer + repair-actor)', [TOOL_HEALTH_WRITER_ROLE, 'repair-actor'], false, names(manifests)],
    [
      'repair-actor alone',
      ['repair-actor'],
      false,
      ['client_file_read', 'jira_create_issue', 'tool_probe_as_user', 'mcp_search', 'empty_roles'],
    ],
    ['arthur, probe turn', [], true, ['tool_probe_as_user', 'empty_roles']],
  ])('%s', (_engine, roles, probeTurn, visible) => {
    const result = filterAudience(manifests, roles as string[], probeTurn as boolean);
    expect(names(result.visible)).toEqual(visible);
    // Every tool lands in exactly one list.
    expect(result.visible.length + result.filtered.length).toBe(manifests.length);
  });

  it('reports why each tool was filtered, a missing role before a probe-turn restriction', () => {
    const result = filterAudience(manifests, [], true);
    expect(result.filtered).toEqual([
      { name: 'client_file_read', reason: FilterReason.NOT_SAFE_PROBE },
      { name: 'tool_health_set_unavailable', reason: FilterReason.MISSING_ENGINE_ROLE },
      { name: 'jira_create_issue', reason: FilterReason.NOT_SAFE_PROBE },
      { name: 'repair_restart', reason: FilterReason.MISSING_ENGINE_ROLE },
      { name: 'mcp_search', reason: FilterReason.NOT_SAFE_PROBE },
    ]);
  });

  it('returns the manifests themselves, unchanged', () => {
    const result = filterAudience(manifests, [TOOL_HEALTH_WRITER_ROLE], false);
    expect(result.visible[1]).toBe(manifests[1]);
  });

  it('handles an empty manifest list', () => {
    expect(filterAudience([], [TOOL_HEALTH_WRITER_ROLE], true)).toEqual({ visible: [], filtered: [] });
  });
});
