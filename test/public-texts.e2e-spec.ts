import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Internal decision ids (P123, D20, D4b) and spec section marks (§7) mean nothing to a reader
 * outside this repository: no public text carries one. One test over the three contracts — the
 * OpenAPI document, the GraphQL schema, the MCP server's tools and instructions — and the
 * messages of the domain's errors, which every transport answers with.
 */
const INTERNAL_ID = /\b[DP]\d{1,3}[a-z]?\b|§\s?\d/;
const ROOT = join(__dirname, '..');

/** Every string in a JSON value, with the path it stands at. */
function strings(value: unknown, path = '$', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, `${path}.${k}`, out);
  return out;
}

const citing = (texts: [string, string][]) =>
  texts.filter(([, text]) => INTERNAL_ID.test(text)).map(([where, text]) => `${where}: ${text}`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('no internal ids in public texts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(() => t.close());

  it('the OpenAPI document: every summary, description and example', () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as unknown;
    expect(citing(strings(document))).toEqual([]);
  });

  it('the GraphQL schema: every description', () => {
    const schema = readFileSync(join(ROOT, 'schema.gql'), 'utf8');
    const lines = schema.split('\n').map((line, i): [string, string] => [`schema.gql:${i + 1}`, line]);
    expect(citing(lines)).toEqual([]);
  });

  it("the MCP server: its instructions and every tool's description and input schema", async () => {
    const { port } = t.app.getHttpServer().address() as { port: number };
    const client = new Client({ name: 'public-texts-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { 'x-api-key': KEYS.writer } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(citing([['instructions', client.getInstructions() ?? ''], ...strings(tools, 'tools')])).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("the domain's error messages, as every transport answers them", () => {
    const thrown: [string, string][] = [];
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const call of text.matchAll(/DomainError\.\w+\(([\s\S]*?)\);?\n/g)) {
        for (const literal of call[1].matchAll(/'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`|"((?:[^"\\]|\\.)*)"/g)) {
          thrown.push([file.slice(ROOT.length + 1), literal[1] ?? literal[2] ?? literal[3]]);
        }
      }
    }
    expect(thrown.length).toBeGreaterThan(50);
    expect(citing(thrown)).toEqual([]);
  });
});
