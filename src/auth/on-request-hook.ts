import { Principal } from './principal';

// Structural types of the onRequest hooks that answer before Nest runs (the GraphQL key check,
// the key before the body, /mcp's edge): only the members they use, as Fastify's own types are generic.

export interface OnRequestRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The route the router matched (after percent-decoding: `/graph%71l` is `/graphql`). */
  routeOptions?: { url?: string };
  /** Set by the first hook that found the caller's key; ApiKeyGuard reuses it. */
  principal?: Principal;
}

export interface OnRequestReply {
  code(status: number): OnRequestReply;
  header(name: string, value: string): OnRequestReply;
  send(body: unknown): OnRequestReply;
  /** Node's response, for what Fastify does not set itself (the reason phrase). */
  raw: { statusMessage: string };
}

export interface OnRequestHost {
  addHook(name: 'onRequest', hook: (request: OnRequestRequest, reply: OnRequestReply) => Promise<unknown>): unknown;
}
