import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { CascadeModule } from '../cascade/cascade.module';
import { CooldownModule } from '../cooldown/cooldown.module';
import { DiagnosisModule } from '../diagnosis/diagnosis.module';
import { EventsModule } from '../events/events.module';
import { HealthModule } from '../health/health.module';
import { TenantsModule } from '../tenants/tenants.module';
import { AdminMutationsResolver } from './admin-mutations.resolver';
import { AdminQueryService } from './admin-query.service';
import { AdminWriteService } from './admin-write.service';
import { HealthEventsResolver } from './health-events.resolver';
import { TenantSettingsResolver } from './tenant-settings.resolver';
import { ApiKeyService } from '../auth/api-key.service';
import { AppConfig } from '../config/app-config';
import { formatGraphqlError } from './graphql-error';
import { queryLimitsRule } from './graphql-limits';
import { graphqlWsOptions } from './live/graphql-ws.options';
import { LiveModule } from './live/live.module';
import { PLAYGROUND_ASSETS_PREFIX } from './playground/playground-assets';
import { playgroundLandingPagePlugin } from './playground/playground.plugin';
import { PlaygroundModule } from './playground/playground.module';
import { ToolHealthResolver } from './tool-health.resolver';

/**
 * The resolvers of the admin API's queries and mutations (the subscription's live in LiveModule).
 * scripts/generate-schema.ts finds them, like Nest does, by walking AppModule's module graph.
 */
export const ADMIN_RESOLVERS = [ToolHealthResolver, HealthEventsResolver, TenantSettingsResolver, AdminMutationsResolver];

@Module({
  imports: [
    CascadeModule, HealthModule, CooldownModule, DiagnosisModule, EventsModule, TenantsModule,
    LiveModule, PlaygroundModule,
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      inject: [AppConfig, ApiKeyService],
      useFactory: (config: AppConfig, keys: ApiKeyService) => ({
        // Generated in memory; `npm run schema:generate` writes schema.gql and a test keeps them equal.
        autoSchemaFile: true,
        sortSchema: true,
        path: '/graphql',
        playground: false,
        introspection: config.introspectionEnabled,
        // Hardening (issue 6): one operation per request, CSRF-safe requests only, bounded queries.
        allowBatchedHttpRequests: false,
        csrfPrevention: true,
        validationRules: [queryLimitsRule()],
        includeStacktraceInErrorResponses: config.nodeEnv !== 'production',
        formatError: (formatted, error) => formatGraphqlError(formatted, error, config.nodeEnv !== 'production'),
        // GraphiQL + Explorer from our own node_modules (D17: the page is public, operations need a key).
        plugins: config.playgroundEnabled ? [playgroundLandingPagePlugin(PLAYGROUND_ASSETS_PREFIX.slice(1))] : [],
        // D13 live updates over graphql-ws on this path; the key comes in connection_init (4401 / 4403).
        subscriptions: {
          'graphql-ws': graphqlWsOptions(keys, (formatted, error) => formatGraphqlError(formatted, error, config.nodeEnv !== 'production')),
        },
      }),
    }),
  ],
  providers: [...ADMIN_RESOLVERS, AdminQueryService, AdminWriteService],
})
export class AdminModule {}
