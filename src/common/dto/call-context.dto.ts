import { InputType } from '@nestjs/graphql';
import { IdField } from './health-key.dto';

/**
 * The caller's context (D6): every level optional, absent levels are skipped by the cascade. The
 * one definition (P112) of the REST context and, through CallContextInput, the GraphQL one.
 */
@InputType({ isAbstract: true })
export class CallContextDto {
  @IdField('The conversation (session) the call belongs to.', { optional: true, example: 's-7' })
  sessionId?: string | null;

  @IdField('The end user the call is made for.', { optional: true, example: 'alice' })
  userId?: string | null;

  @IdField('The project the session belongs to.', { optional: true, example: 'p-1' })
  projectId?: string | null;

  @IdField('The tenant (organisation) the project belongs to.', { optional: true, example: 'acme' })
  tenantId?: string | null;
}
