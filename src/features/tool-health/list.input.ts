import { InputType } from '@nestjs/graphql';
import { IsBoolean, IsEnum } from 'class-validator';
import { CallContextDto } from '../../shapes/call-context.dto';
import { IdField } from '../../shapes/health-key.dto';
import { ShapeField } from '../../shapes/shape-field';
import { Scope, ToolStatus } from '../../shapes/enums.registration';

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

@InputType('ToolHealthFilter', { description: 'Every field optional; given fields must all match.' })
export class ToolHealthFilterInput extends KeyFilterInput {
  @ShapeField('Only entries with this stored status.', { type: () => ToolStatus, optional: true })
  @IsEnum(ToolStatus)
  status?: ToolStatus | null;

  @ShapeField('true: only entries holding a running cooldown; false: only those holding none.', { type: () => Boolean, optional: true })
  @IsBoolean()
  hasActiveCooldown?: boolean | null;
}

/** The GraphQL name of the one context shape (P112); every field comes from CallContextDto. */
@InputType('CallContextInput', {
  description: 'Who calls: session, user, project and tenant, every level optional; absent levels are skipped.',
})
export class CallContextInput extends CallContextDto {}
