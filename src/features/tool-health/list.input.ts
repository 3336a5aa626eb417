import { InputType } from '@nestjs/graphql';
import { IsBoolean, IsEnum } from 'class-validator';
import { CallContextDto } from '../../shapes/call-context.dto';
import { KeyFilterInput } from '../../shapes/key-filter.input';
import { ShapeField } from '../../shapes/shape-field';
import { ToolStatus } from '../../shapes/enums.registration';

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
