import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_TOOLS } from './mcp-tools';

/**
 * The argument schemas an LLM reads in tools/list (and the Agrajag manifest), pinned to the text:
 * mcp-tool-inputs.json is what the hand-written schemas published before they were derived from
 * the argument classes (P115). A change to a class shows here; update the file only on purpose.
 * Compared as JSON text, so the order of the keys (what the model reads) is pinned too.
 */
const PUBLISHED = JSON.parse(readFileSync(join(__dirname, 'mcp-tool-inputs.json'), 'utf8')) as Record<string, unknown>;

describe('MCP tool input schemas (what the model reads)', () => {
  it('covers every tool', () => {
    expect(MCP_TOOLS.map((t) => t.name).sort()).toEqual(Object.keys(PUBLISHED).sort());
  });

  it.each(MCP_TOOLS.map((t) => [t.name, t]))('%s publishes exactly the pinned schema', (name, tool) => {
    expect(JSON.stringify(tool.inputSchema, null, 2)).toBe(JSON.stringify(PUBLISHED[name], null, 2));
  });
});
