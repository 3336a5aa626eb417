import { ArgsType, PickType } from '@nestjs/graphql';
import { IsEnum } from 'class-validator';
import { ShapeField } from '../../shapes/shape-field';
import { KeyFilterInput } from '../../shapes/key-filter.input';
import { ToolStatus } from '../../shapes/enums.registration';

/** Filters of `toolHealthChanged`; each one given narrows the feed, none given means every event. */
@ArgsType()
export class ToolHealthChangedArgs extends PickType(KeyFilterInput, ['toolName', 'scope', 'scopeId'] as const, ArgsType) {
  @ShapeField("Only events whose document's status after the write is this one.", { type: () => ToolStatus, optional: true })
  @IsEnum(ToolStatus)
  status?: ToolStatus | null;
}
