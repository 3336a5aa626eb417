import { InputType } from '@nestjs/graphql';
import { IsEnum } from 'class-validator';
import { IdField } from './health-key.dto';
import { ShapeField } from './shape-field';
import { Scope } from './enums.registration';

/** The key filters of the GraphQL lists and feeds (entries, events, maintenance windows), each described once (P112). */
@InputType({ isAbstract: true })
export class KeyFilterInput {
  @IdField('Only this tool.', { optional: true })
  toolName?: string | null;

  @ShapeField('Only this scope.', { type: () => Scope, optional: true })
  @IsEnum(Scope)
  scope?: Scope | null;

  @IdField('Only this scope id (GLOBAL has none: filter it with scope GLOBAL).', { optional: true })
  scopeId?: string | null;
}
