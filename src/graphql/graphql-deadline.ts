import { defaultFieldResolver, GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { DeadlineLiveness, withinDeadline } from '../database/request-deadline';
import { abandonAtDeadline, deadlineError, DeadlineRequest, Settled } from '../idempotency/deadline-handoff';

/**
 * P41 on GraphQL: every Query and Mutation field races the request deadline
 * (src/database/request-deadline.ts), over HTTP and graphql-ws alike; the field then fails with
 * UNAVAILABLE, formatted like any error of the API. A mutation's error says whether it may still
 * be applied, and how it ends is handed to the Idempotency-Key hook (P123). A subscription is a
 * stream: only its start would be bounded, and its fields are left as they are.
 *
 * Set on the built schema (GraphQLModule's `transformSchema`), where the root fields' resolvers
 * are, rather than as a Nest interceptor, which would put its rxjs chain on every REST request
 * too (P343).
 */
export function boundRootFieldsByDeadline(schema: GraphQLSchema, deadlineMs: number, liveness: DeadlineLiveness): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type) continue;
    const mutation = type === schema.getMutationType();
    for (const field of Object.values(type.getFields())) {
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const sentAt = Date.now();
        const result = resolve(source, args, context, info);
        if (!(result instanceof Promise)) return result;
        const request = (context as { req?: DeadlineRequest } | undefined)?.req;
        return withinDeadline(result, sentAt, deadlineMs, liveness, () => {
          abandonAtDeadline(request, 'graphql', settledOf(result));
          return deadlineError(mutation, request);
        });
      };
    }
  }
  return schema;
}

const settledOf = (work: Promise<unknown>): Promise<Settled> =>
  work.then(
    (value): Settled => ({ ok: true, status: 200, value }),
    (): Settled => ({ ok: false }),
  );
