import { Client, createClient } from 'graphql-ws';
import type { TypedDocumentString } from './graphql/generated';

/** The console talks to this service only: /graphql beside /console (relative, so a path prefix works). */
const GRAPHQL_URL = new URL('graphql', document.baseURI).toString();
const KEY_STORAGE = 'tas-console-key';

/** The key lives for this browser tab's session only (D26): sessionStorage, never localStorage or a cookie. */
export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}
export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_STORAGE);
  else sessionStorage.setItem(KEY_STORAGE, key);
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** The variables argument: optional for an operation that takes none, else required and typed. */
export type VariablesOf<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

/**
 * One GraphQL operation over HTTP with the typed key; errors become ApiError (401/403 named).
 * The answer and the variables are typed by the operation's generated document
 * (console/src/graphql/generated.ts), never by hand.
 */
export async function gql<T, V>(key: string, document: TypedDocumentString<T, V>, ...[variables]: VariablesOf<V>): Promise<T> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', 'x-api-key': key },
    body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
  });
  let body: GraphqlAnswer<T> & { message?: string; error?: string };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new ApiError(`the service answered ${response.status} without JSON`, null, response.status);
  }
  if (response.status === 401) throw new ApiError(body.message ?? 'unknown key', 'UNAUTHENTICATED', 401);
  if (body.errors?.length) {
    const first = body.errors[0];
    throw new ApiError(body.errors.map((e) => e.message).join('; '), first.extensions?.code ?? null, response.status);
  }
  if (!response.ok || !body.data)
    throw new ApiError(body.message ?? `the service answered ${response.status}`, body.error ?? null, response.status);
  return body.data;
}

/** graphql-ws on the same origin; the key goes in connection_init. 4401/4403 are final (no retry). */
export function subscriptionClient(key: string, onState: (connected: boolean) => void): Client {
  const url = GRAPHQL_URL.replace(/^http/, 'ws');
  return createClient({
    url,
    connectionParams: { 'x-api-key': key },
    lazy: false,
    retryAttempts: Infinity,
    shouldRetry: (event) => !(event && typeof event === 'object' && 'code' in event && [4401, 4403].includes((event as CloseEvent).code)),
    on: { connected: () => onState(true), closed: () => onState(false) },
  });
}
