import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { IDEMPOTENCY_KEY_PATTERN } from '../../src/domain/idempotency-key';

/**
 * Issue 36 (P242): the served OpenAPI document read by a strict validator, and every REST answer
 * the e2e suite receives checked against it. The document itself must satisfy the official
 * OpenAPI 3.1 schema, and each of its schemas must compile under Ajv's JSON Schema 2020-12 in
 * strict mode (an unknown keyword or format, a misspelt type, is an error, not ignored). An
 * answer must have a documented status for its operation, the content type and body that status
 * documents (validated against the schema, with every error reported), and each declared header
 * it carries must match that header's schema.
 */
type Node = Record<string, any>;

const DOCUMENT_ID = 'https://tool-availability.invalid/openapi.json';
const OFFICIAL_SCHEMA = path.join(
  path.dirname(require.resolve('@seriousme/openapi-schema-validator/package.json')),
  'schemas',
  'v3.1',
  'schema.json',
);

/** The answer as the test saw it: enough of supertest's response. */
export interface SeenAnswer {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  operation: Node;
}

/** Ajv in strict mode for the dialect OpenAPI 3.1 uses, knowing OpenAPI's own schema keywords and the formats the document names. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, strictRequired: false });
  addFormats(ajv);
  // Ajv knows OpenAPI 3.0's `nullable`; JSON Schema 2020-12 (and so OpenAPI 3.1) does not, so it must be an unknown keyword here.
  ajv.removeKeyword('nullable');
  // OpenAPI 3.1's vocabulary beside JSON Schema's: annotations, nothing to validate.
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
  ajv.addFormat('idempotency-key', IDEMPOTENCY_KEY_PATTERN);
  ajv.addFormat('iana-time-zone', (value: string) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  });
  return ajv;
}

export class OpenApiAnswers {
  private readonly ajv = strictAjv();
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: Node) {
    // The components' schemas as one 2020-12 schema ($defs), each $ref pointing into it.
    const retarget = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(retarget);
      if (!node || typeof node !== 'object') return node;
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${DOCUMENT_ID}#/$defs/`) : retarget(v),
        ]),
      );
    };
    // Specification extensions (`x-…`) inside schemas are annotations too.
    const extensions = new Set<string>();
    const collect = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k.startsWith('x-')) extensions.add(k);
        collect(v);
      }
    };
    collect(document.components?.schemas);
    collect(document.paths);
    if (extensions.size) this.ajv.addVocabulary([...extensions]);
    this.ajv.addSchema({ $id: DOCUMENT_ID, $defs: retarget(document.components?.schemas ?? {}) });
    this.retarget = retarget;
    for (const [template, item] of Object.entries((document.paths ?? {}) as Record<string, Node>)) {
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of Object.entries(item))
        if (operation && typeof operation === 'object' && 'responses' in operation)
          this.operations.push({ method: method.toUpperCase(), template, pattern, operation });
    }
  }

  private readonly retarget: (node: unknown) => unknown;

  /** Problems with the document itself: the official OpenAPI 3.1 schema, then every schema compiled strictly. */
  documentProblems(): string[] {
    const official = JSON.parse(readFileSync(OFFICIAL_SCHEMA, 'utf8')) as Node;
    const meta = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(meta);
    meta.addFormat('media-range', true); // the official schema's own format for media type keys
    const valid = meta.validate(official, this.document);
    const problems = valid ? [] : (meta.errors ?? []).map((e) => `openapi 3.1 schema: ${e.instancePath} ${e.message}`);
    for (const name of Object.keys((this.document.components?.schemas ?? {}) as Node))
      try {
        this.ajv.getSchema(`${DOCUMENT_ID}#/$defs/${name}`);
      } catch (error) {
        problems.push(`components.schemas.${name}: ${(error as Error).message}`);
      }
    for (const { method, template, operation } of this.operations)
      for (const [status, answer] of Object.entries((operation.responses ?? {}) as Record<string, Node>)) {
        for (const [type, media] of Object.entries((answer.content ?? {}) as Record<string, Node>))
          if (media.schema)
            try {
              this.validator(media.schema);
            } catch (error) {
              problems.push(`${method} ${template} ${status} ${type}: ${(error as Error).message}`);
            }
        for (const [name, header] of Object.entries((answer.headers ?? {}) as Record<string, Node>))
          if (header.schema)
            try {
              this.validator(header.schema);
            } catch (error) {
              problems.push(`${method} ${template} ${status} header ${name}: ${(error as Error).message}`);
            }
      }
    return problems;
  }

  private validator(schema: Node): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(this.retarget(schema) as Node);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** The documented operation a request reached, if any (GraphQL, MCP, the console and the docs are not REST operations). */
  operationOf(method: string, url: string): Operation | undefined {
    const pathname = new URL(url, 'http://service.invalid').pathname;
    return this.operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(pathname));
  }

  /** What is wrong with one answer against the document; empty when it is what the document says. */
  answerProblems(seen: SeenAnswer): string[] {
    const found = this.operationOf(seen.method, seen.url);
    if (!found) return [];
    const where = `${seen.method.toUpperCase()} ${seen.url} → ${seen.status} (${found.operation.operationId})`;
    const responses = (found.operation.responses ?? {}) as Record<string, Node>;
    const answer = responses[String(seen.status)] ?? responses[`${String(seen.status)[0]}XX`] ?? responses.default;
    if (!answer) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const problems: string[] = [];

    for (const [name, header] of Object.entries((answer.headers ?? {}) as Record<string, Node>)) {
      const value = seen.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`${where}: required header ${name} missing`);
        continue;
      }
      const validate = header.schema ? this.validator(header.schema) : undefined;
      if (validate && !validate(Array.isArray(value) ? value.join(', ') : value))
        problems.push(`${where}: header ${name} ${JSON.stringify(value)}: ${this.ajv.errorsText(validate.errors)}`);
    }

    const content = answer.content as Record<string, Node> | undefined;
    const contentType = String(seen.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const hasBody =
      (seen.text ?? '').length > 0 || (seen.body !== undefined && seen.body !== '' && !isEmptyObject(seen.body) && !seen.text);
    if (!content) {
      if (hasBody) problems.push(`${where}: a body (${contentType || 'no content type'}) where the document declares none`);
      return problems;
    }
    const media = content[contentType];
    if (!media)
      return [...problems, `${where}: content type ${JSON.stringify(contentType)} not documented (${Object.keys(content).join(', ')})`];
    if (!media.schema || !/json/.test(contentType)) return problems;
    let body = seen.body;
    if ((body === undefined || isEmptyObject(body)) && seen.text) body = JSON.parse(seen.text);
    const validate = this.validator(media.schema);
    if (!validate(body))
      problems.push(
        `${where}: body outside its schema: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}\n  body: ${JSON.stringify(body).slice(0, 600)}`,
      );
    return problems;
  }
}

function isEmptyObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

let served: OpenApiAnswers | undefined;

/** The validator of the committed openapi.json (test/contract-openapi.e2e-spec.ts keeps it equal to the served one). */
export function servedOpenApiAnswers(): OpenApiAnswers {
  served ??= new OpenApiAnswers(JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'openapi.json'), 'utf8')) as Node);
  return served;
}
