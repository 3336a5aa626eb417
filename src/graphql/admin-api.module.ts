import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { GraphQLFormattedError } from 'graphql';
import { AuthModule } from '../auth/auth.module';
import { ApiKeyService } from '../auth/api-key.service';
import { AppConfig } from '../config/app-config';
import { DatabaseLiveness } from '../database/database-liveness';
import { PersistenceModule } from '../persistence/persistence.module';
import { boundRootFieldsByDeadline } from './graphql-deadline';
import { formatGraphqlError } from './graphql-error';
import { MAX_QUERY_TOKENS, introspectionAccessPlugin, queryLimitsRule, withoutSuggestions } from './graphql-limits';
import { graphqlWsOptions } from './graphql-ws.options';
import { PLAYGROUND_ASSETS_PREFIX } from './playground/playground-assets';
import { playgroundLandingPagePlugin } from './playground/playground.plugin';
import { PlaygroundModule } from './playground/playground.module';
import { describeRootTypes } from './root-type-descriptions';
import { graphqlWarningsPlugin } from '../shapes/graphql-warnings';
import { legacyJsonStatusPlugin } from './legacy-json-status.plugin';
import { WsPayloadBound } from './ws-payload-bound';
import { ViewerResolver } from './viewer.resolver';

/**
 * The admin GraphQL API's server: Apollo, its limits and plugins, graphql-ws and the playground.
 * The resolvers live in the feature rooms (src/features/*), each provided by its feature's
 * module; GraphQLModule finds them, as scripts/generate-schema.ts does, by walking AppModule's
 * module graph.
 */
@Module({
  imports: [
    PlaygroundModule,
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [AuthModule, PersistenceModule],
      inject: [AppConfig, ApiKeyService, DatabaseLiveness],
      useFactory: (config: AppConfig, keys: ApiKeyService, liveness: DatabaseLiveness) => {
        // No "Did you mean …?" where introspection is off (they spell out the schema) (P62).
        const formatError = (formatted: GraphQLFormattedError, error: unknown) => {
          const out = formatGraphqlError(formatted, error, config.nodeEnv !== 'production');
          return config.introspectionEnabled ? out : withoutSuggestions(out);
        };
        return {
          // Generated in memory; `npm run schema:generate` writes schema.gql and a test keeps them equal.
          autoSchemaFile: true,
          sortSchema: true,
          // P147: root types described, as in schema.gql; P41: each Query and Mutation field bounded by the request deadline.
          transformSchema: (schema) => boundRootFieldsByDeadline(describeRootTypes(schema), config.requestDeadlineMs, liveness),
          path: '/graphql',
          playground: false,
          introspection: config.introspectionEnabled,
          // Hardening (issue 6): one operation per request, CSRF-safe requests only, bounded queries.
          allowBatchedHttpRequests: false,
          csrfPrevention: true,
          validationRules: [queryLimitsRule()],
          parseOptions: { maxTokens: MAX_QUERY_TOKENS }, // P61: huge documents stop at the parser
          // Automatic persisted queries off: a registered hash replayed without `query` is an
          // operation nobody sends in full; the key check (graphql-http-auth.ts) covers every request anyway (P61).
          persistedQueries: false,
          // No stack trace in any answer, in any mode: it tells a caller nothing it can act on and
          // shows the server's files; the log has it (P244).
          includeStacktraceInErrorResponses: false,
          formatError,
          plugins: [
            introspectionAccessPlugin(), // P62: __schema/__type only for roles with GraphQL access (D17)
            legacyJsonStatusPlugin(), // P148: 200 for request errors to application/json-only clients
            graphqlWarningsPlugin(), // P150: extensions.warnings (a diagnosis's refused cooldown)
            // GraphiQL + Explorer from our own node_modules (D17: the page is public, operations need a key).
            ...(config.playgroundEnabled ? [playgroundLandingPagePlugin(PLAYGROUND_ASSETS_PREFIX.slice(1))] : []),
          ],
          // D13 live updates over graphql-ws on this path; the key comes in connection_init (4401 / 4403).
          subscriptions: {
            'graphql-ws': graphqlWsOptions(keys, formatError, { introspection: config.introspectionEnabled }),
          },
        } satisfies ApolloDriverConfig;
      },
    }),
  ],
  providers: [WsPayloadBound, ViewerResolver],
})
export class AdminApiModule {}
