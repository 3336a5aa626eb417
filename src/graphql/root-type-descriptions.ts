import type { GraphQLSchema } from 'graphql';

/**
 * The root types' descriptions (P147). Nest's code-first builder has no option for them, so they
 * are set on the built schema: by GraphQLModule's `transformSchema` for the served schema and by
 * scripts/generate-schema.ts for schema.gql, so the two stay equal.
 */
export const ROOT_TYPE_DESCRIPTIONS = {
  Query: 'Reads of the health entries, their events, overviews, maintenance windows and tenant settings (admin and audit-reader keys).',
  Mutation: 'Admin acts on the health entries, cooldowns, pins, maintenance windows and tenant settings (admin keys only).',
  Subscription: 'Live events over graphql-ws, fed from the event log (admin and audit-reader keys).',
} as const;

export function describeRootTypes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (type) type.description = ROOT_TYPE_DESCRIPTIONS[type.name as keyof typeof ROOT_TYPE_DESCRIPTIONS] ?? type.description;
  }
  return schema;
}
