import { InputType } from '@nestjs/graphql';
import { ChangeCooldownWindowDto, ClearCooldownDto, SetCooldownDto } from './cooldown.dto';

// The GraphQL names of the cooldown shapes (P112); every field comes from the REST DTO.

@InputType('SetCooldownInput', {
  description: 'The entry, the error signature and classification of the cooldown, and optionally its window.',
})
export class SetCooldownInput extends SetCooldownDto {}

@InputType('ClearCooldownInput', { description: 'The entry and the cooldown to forget.' })
export class ClearCooldownInput extends ClearCooldownDto {}

@InputType('ChangeCooldownWindowInput', { description: 'Which cooldown gets a new window, and the window.' })
export class ChangeCooldownWindowInput extends ChangeCooldownWindowDto {}
