import { InputType } from '@nestjs/graphql';
import { HealthKeyDto } from './health-key.dto';

/** The GraphQL name of the one key shape (P112); every field comes from HealthKeyDto. */
@InputType('HealthKeyInput', { description: 'One entry: a scope, its id and a tool name.' })
export class HealthKeyInput extends HealthKeyDto {}
