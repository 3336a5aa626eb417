import { JsonRpcErrorCode, JsonRpcErrorResponse, jsonRpcError } from '../errors/json-rpc-errors';

/** An answer given instead of handing the message to the SDK: HTTP status and JSON-RPC body. */
export interface McpRefusal {
  status: number;
  body: JsonRpcErrorResponse;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const kind = (value: unknown): string =>
  value === undefined ? 'missing' : value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

/**
 * What the service refuses itself before the SDK sees a parsed /mcp body (P136).
 * - A batch (array): removed from MCP in protocol 2025-06-18; up to 100 writes ran per POST.
 *   Refused whole, nothing run: HTTP 400, -32600, id null (a batch has no single id).
 * - `params` that is not an object, and for tools/call a `name` that is not a string or
 *   `arguments` that is not an object: -32602 with a sentence naming the member, answered with
 *   HTTP 200 and the request's id like every other JSON-RPC error of a request, so the SDK
 *   clients raise it as that error. The SDK's own schema check made these -32603 with a dump
 *   of its validator's issues.
 * Anything else goes to the SDK unchanged. Pure: no I/O.
 */
export function refuseMessage(body: unknown): McpRefusal | null {
  if (Array.isArray(body)) {
    return {
      status: 400,
      body: jsonRpcError(
        JsonRpcErrorCode.INVALID_REQUEST,
        'Invalid Request: JSON-RPC batches are not accepted (removed from MCP in protocol version 2025-06-18); send one message per POST. Nothing in this batch was run.',
      ),
    };
  }
  if (!isPlainObject(body)) {
    return {
      status: 400,
      body: jsonRpcError(
        JsonRpcErrorCode.INVALID_REQUEST,
        `Invalid Request: the body is ${kind(body)}; send one JSON-RPC message (an object)`,
      ),
    };
  }
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : undefined;
  if (id === undefined || typeof body.method !== 'string') return null; // a notification, a response or malformed: the SDK's
  const invalid = (message: string): McpRefusal => ({
    status: 200,
    body: jsonRpcError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: ${message}`, undefined, id),
  });
  const { params } = body;
  if (params !== undefined && !isPlainObject(params)) return invalid(`params is ${kind(params)}; send an object`);
  if (body.method !== 'tools/call') return null;
  // Narrowed by hand: the schema generator compiles without strictNullChecks, where `?.` on unknown does not narrow.
  const call = params as Record<string, unknown> | undefined;
  const name = call?.name;
  if (typeof name !== 'string' || name === '') {
    return invalid(`params.name is ${name === '' ? 'empty' : kind(name)}; send the name of the tool to call, a string`);
  }
  const args = call?.arguments;
  if (args !== undefined && !isPlainObject(args)) {
    return invalid(`params.arguments is ${kind(args)}; send the tool's arguments as an object of name → value`);
  }
  return null;
}
