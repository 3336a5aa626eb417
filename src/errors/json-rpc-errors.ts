import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { HTTP_STATUS_OF } from './error-codes';

/** JSON-RPC 2.0 error codes (its "Error object" section) and the server-defined ones this service uses (P136). */
export enum JsonRpcErrorCode {
  PARSE_ERROR = -32700,
  INVALID_REQUEST = -32600,
  METHOD_NOT_FOUND = -32601,
  INVALID_PARAMS = -32602,
  INTERNAL_ERROR = -32603,
  /** Server-defined: the request is refused before it is read (Host/Origin, P136). */
  REFUSED = -32000,
  /** Server-defined: no or an unknown API key (P136). */
  UNAUTHENTICATED = -32001,
}

/**
 * The JSON-RPC face of the domain codes, for errors /mcp answers outside a tool result (P73:
 * a tool's own failures are isError results). Beside HTTP_STATUS_OF so a new code is a compile
 * error here too.
 */
export const JSON_RPC_CODE_OF = {
  [DomainErrorCode.INVALID_ARGUMENT]: JsonRpcErrorCode.INVALID_PARAMS,
  [DomainErrorCode.UNAUTHENTICATED]: JsonRpcErrorCode.UNAUTHENTICATED,
  [DomainErrorCode.FORBIDDEN]: JsonRpcErrorCode.INVALID_PARAMS,
  [DomainErrorCode.NOT_FOUND]: JsonRpcErrorCode.INVALID_PARAMS,
  [DomainErrorCode.CONFLICT]: JsonRpcErrorCode.INTERNAL_ERROR,
  [DomainErrorCode.UNAVAILABLE]: JsonRpcErrorCode.INTERNAL_ERROR,
  [DomainErrorCode.PAYLOAD_TOO_LARGE]: JsonRpcErrorCode.INVALID_REQUEST,
  [DomainErrorCode.UNSUPPORTED_MEDIA_TYPE]: JsonRpcErrorCode.INVALID_REQUEST,
  [DomainErrorCode.METHOD_NOT_ALLOWED]: JsonRpcErrorCode.INVALID_REQUEST,
  // A reused Idempotency-Key with another request is a bad call; in flight and over the cap are server-side refusals (P122).
  [DomainErrorCode.IDEMPOTENCY_KEY_MISMATCH]: JsonRpcErrorCode.INVALID_REQUEST,
  [DomainErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT]: JsonRpcErrorCode.REFUSED,
  [DomainErrorCode.IDEMPOTENCY_KEY_LIMIT]: JsonRpcErrorCode.REFUSED,
} as const satisfies Record<DomainErrorCode, JsonRpcErrorCode>;

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  error: { code: number; message: string; data?: Record<string, unknown> };
  id: string | number | null;
}

export function jsonRpcError(
  code: JsonRpcErrorCode,
  message: string,
  data?: Record<string, unknown>,
  id: string | number | null = null,
): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', error: data ? { code, message, data } : { code, message }, id };
}

/** A domain error refused before any JSON-RPC message was read: its HTTP status and body. */
export function jsonRpcAnswerOf(error: DomainError, code: JsonRpcErrorCode = JSON_RPC_CODE_OF[error.code]) {
  const data: Record<string, unknown> = { code: error.code };
  if (error.field) data.field = error.field;
  return { status: HTTP_STATUS_OF[error.code], body: jsonRpcError(code, error.message, data) };
}

/**
 * An error a JSON-RPC handler throws to answer with `code` and exactly `message` (P136). The SDK
 * server sends `error.message` as is, and McpError's message already starts with "MCP error
 * -32602: ", which the SDK client prefixes again ("MCP error -32602: MCP error -32602: …").
 */
export class JsonRpcFault extends Error {
  constructor(
    readonly code: JsonRpcErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'JsonRpcFault';
  }
}
