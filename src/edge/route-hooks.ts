// Structural: only the members of the adapter's Fastify the edge hooks use (its own types are generic).

/** The two Fastify hooks the edge answers register: every route as it is added, and each request before its body is read. */
export interface RouteHooks {
  addHook(name: 'onRoute', hook: (route: { method: string | string[]; url: string }) => void): unknown;
  addHook(
    name: 'onRequest',
    hook: (
      request: { is404: boolean; method: string; url: string },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the generic reply of both Fastify copies
      reply: { header(name: string, value: string): unknown; code(status: number): { send(...args: any[]): unknown } },
      done: () => void,
    ) => void,
  ): unknown;
}
