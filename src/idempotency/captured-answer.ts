import { ServerResponse } from 'node:http';
import { StoredAnswer } from './idempotency-record.schema';
import { WriteSurface } from './write-requests';

/** The headers a replay sends again; the rest (date, connection, content-length…) belong to each answer. */
const KEPT_HEADERS = ['content-type', 'location', 'retry-after', 'allow'];
/** Sent on every replayed answer, so a caller (and a log) can tell it from a first one. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Records what is written to the raw response, whoever writes it (Fastify's reply, Apollo, the MCP
 * SDK's transport on a hijacked reply): the one place all three surfaces pass through.
 */
export function captureAnswer(res: ServerResponse, onEnd: (answer: StoredAnswer) => void): void {
  const chunks: Buffer[] = [];
  const headArgs: Record<string, unknown> = {};
  const toBuffer = (chunk: unknown, encoding?: unknown): Buffer | null =>
    chunk === undefined || chunk === null || typeof chunk === 'function'
      ? null
      : Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let ended = false;
  (res as unknown as { writeHead: unknown }).writeHead = (...args: unknown[]) => {
    const headers = args.find((a, i) => i > 0 && a && typeof a === 'object');
    if (headers && !Array.isArray(headers)) for (const [k, v] of Object.entries(headers)) headArgs[k.toLowerCase()] = v;
    return writeHead(...args);
  };
  (res as unknown as { write: unknown }).write = (...args: unknown[]) => {
    const b = toBuffer(args[0], args[1]);
    if (b) chunks.push(b);
    return write(...args);
  };
  (res as unknown as { end: unknown }).end = (...args: unknown[]) => {
    const b = toBuffer(args[0], args[1]);
    if (b) chunks.push(b);
    const result = end(...args);
    if (!ended) {
      ended = true;
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = headArgs[name] ?? res.getHeader(name);
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      onEnd({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('base64') });
    }
    return result;
  };
}

function parseJson(answer: StoredAnswer): unknown {
  try {
    return JSON.parse(Buffer.from(answer.body, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Only an answer that may have changed something is kept; every other one gives the key
 * back (its write did not happen, so a retry may run it) (P122). REST: a 2xx. GraphQL: a 2xx whose `data`
 * holds a result for at least one mutation field (partial results are kept: the applied ones must
 * not run twice). MCP: a 2xx JSON-RPC result that is not `isError` (tool errors write nothing).
 */
export function answerWrote(surface: WriteSurface, answer: StoredAnswer): boolean {
  if (answer.status < 200 || answer.status >= 300) return false;
  if (surface === WriteSurface.REST) return true;
  const body = parseJson(answer) as { data?: Record<string, unknown> | null; result?: { isError?: boolean } } | undefined;
  if (surface === WriteSurface.GRAPHQL) return !!body?.data && Object.values(body.data).some((v) => v !== null);
  return !!body?.result && body.result.isError !== true;
}

/** The stored answer, with the retry's own JSON-RPC id on MCP (the fingerprint leaves ids out). */
export function replayBody(surface: WriteSurface, answer: StoredAnswer, requestBody: unknown): Buffer {
  const bytes = Buffer.from(answer.body, 'base64');
  if (surface !== WriteSurface.MCP) return bytes;
  const body = parseJson(answer);
  const id = (requestBody as { id?: unknown } | null)?.id;
  if (!body || typeof body !== 'object' || Array.isArray(body) || id === undefined) return bytes;
  return Buffer.from(JSON.stringify({ ...(body as object), id }));
}
