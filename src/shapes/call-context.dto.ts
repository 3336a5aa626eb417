import { InputType } from '@nestjs/graphql';
import { IdField } from './health-key.dto';

/**
 * The caller's context (D6): every level optional, absent levels are skipped by the cascade. The
 * one definition (P112) of the REST context and, through CallContextInput, the GraphQL one.
 */
@InputType({ isAbstract: true })
export class CallContextDto {
  @IdField('The conversation (session) the call belongs to.', { optional: true, example: 'example-session' })
  sessionId?: string | null;

  @IdField('The end user the call is made for.', { optional: true, example: 'example-user' })
  userId?: string | null;

  @IdField('The project the session belongs to.', { optional: true, example: 'example-project' })
  projectId?: string | null;

  @IdField('The tenant (organisation) the project belongs to.', { optional: true, example: 'example-tenant' })
  tenantId?: string | null;
}
