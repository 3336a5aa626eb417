import { ArgsType, PickType } from '@nestjs/graphql';
import { HealthKeyDto } from './health-key.dto';

/** The key as query arguments, picked from the one key shape (P112). */
@ArgsType()
export class HealthKeyArgs extends PickType(HealthKeyDto, ['scope', 'scopeId', 'toolName'] as const, ArgsType) {}
