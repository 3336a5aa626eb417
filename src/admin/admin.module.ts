import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { CascadeModule } from '../cascade/cascade.module';
import { AppConfig } from '../config/app-config';
import { formatGraphqlError } from './graphql-error';
import { ToolHealthResolver } from './tool-health.resolver';

/** Every resolver of the admin API; the schema generator builds `schema.gql` from this list. */
export const ADMIN_RESOLVERS = [ToolHealthResolver];

@Module({
  imports: [
    CascadeModule,
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // Generated in memory; `npm run schema:generate` writes schema.gql and a test keeps them equal.
        autoSchemaFile: true,
        sortSchema: true,
        path: '/graphql',
        playground: false,
        introspection: config.introspectionEnabled,
        includeStacktraceInErrorResponses: config.nodeEnv !== 'production',
        formatError: (formatted, error) => formatGraphqlError(formatted, error, config.nodeEnv !== 'production'),
      }),
    }),
  ],
  providers: [...ADMIN_RESOLVERS],
})
export class AdminModule {}
