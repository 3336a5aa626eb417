import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Principal } from '../auth/principal';
import { Role } from '../domain/role';
import { compileArgumentsValidator } from '../features/diagnoses/agrajag-arguments';
import { AGRAJAG_TOOLS } from '../features/diagnoses/agrajag-tools';
import { DomainError } from '../domain/domain-error';
import { MCP_TOOLS, McpReadToolName, findTool, mayCall, visibleTools } from './mcp-tools';

const key = (...roles: Role[]): Principal => ({ name: 'k', roles });
const names = (principal: Principal) => visibleTools(principal).map((t) => t.name);
const WRITERS = AGRAJAG_TOOLS.map((t) => t.name);
const READERS = [McpReadToolName.GET, McpReadToolName.LOOKUP];

describe('MCP tool catalogue (issue 15)', () => {
  it('publishes the Agrajag writers with the very input schema REST validates with (one source)', () => {
    for (const manifest of AGRAJAG_TOOLS) expect(findTool(manifest.name)!.inputSchema).toBe(manifest.inputSchema);
  });

  it.each<[string, Role[], string[]]>([
    ['dispatcher', [Role.DISPATCHER], []],
    ['tool-health-writer', [Role.TOOL_HEALTH_WRITER], [...WRITERS, ...READERS]],
    ['audit-reader', [Role.AUDIT_READER], READERS],
    ['dispatcher + audit-reader', [Role.DISPATCHER, Role.AUDIT_READER], READERS],
    ['admin', [Role.ADMIN], [...WRITERS, ...READERS]],
    ['no role', [], []],
  ])('shows a %s key exactly the tools it may call (D17)', (_label, roles, expected) => {
    expect(names(key(...roles))).toEqual(expected);
    for (const tool of MCP_TOOLS) expect(mayCall(key(...roles), tool)).toBe(expected.includes(tool.name));
  });

  it('marks every tool SAFE_PROBE, never open-world, and only tool_health_clear destructive (§8, P138)', () => {
    for (const tool of MCP_TOOLS) {
      expect(tool._meta.safety).toBe('SAFE_PROBE');
      expect(tool.annotations).toMatchObject({ destructiveHint: tool.name === 'tool_health_clear', openWorldHint: false });
      expect(tool.annotations.readOnlyHint).toBe(tool.annotations.idempotentHint); // only the readers are either
    }
  });

  it('has input and output schemas that compile as JSON Schema objects', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    addFormats(ajv, ['date-time']);
    for (const tool of MCP_TOOLS) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema.type).toBe('object');
      expect(() => ajv.compile(tool.outputSchema)).not.toThrow();
    }
  });

  it.each<[string, unknown, RegExp]>([
    ['a missing scope', { toolName: 'jira' }, /arguments\.scope/],
    [
      'a scope outside the enum',
      { toolName: 'jira', scope: 'WORLD' },
      /arguments\.scope must be equal to one of the allowed values \(SESSION, USER, PROJECT, TENANT, GLOBAL\)/,
    ],
    ['an unknown argument', { toolName: 'jira', scope: 'GLOBAL', since: 'x' }, /arguments\.since is not a parameter of this tool/],
    ['a bad tool name', { toolName: 'a b', scope: 'GLOBAL' }, /arguments\.toolName must match pattern/],
  ])('tool_health_get refuses %s naming the argument', (_label, args, message) => {
    const validate = compileArgumentsValidator(findTool(McpReadToolName.GET)!.inputSchema);
    expect(() => validate(args)).toThrow(DomainError);
    expect(() => validate(args)).toThrow(message);
    expect(() => validate({ toolName: 'jira', scope: 'GLOBAL' })).not.toThrow();
  });
});
