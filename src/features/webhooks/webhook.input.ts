import { Field, ID, InputType } from '@nestjs/graphql';
import { IsString, MaxLength } from 'class-validator';
import { CreateWebhookEndpointDto, ChangeWebhookEndpointDto } from './webhook.dto';

/** The GraphQL names of the webhook write shapes (P112); the fields come from the REST DTOs. */
@InputType('CreateWebhookEndpointInput', { description: 'A webhook endpoint to register: URL, filters, format.' })
export class CreateWebhookEndpointInput extends CreateWebhookEndpointDto {}

@InputType('ChangeWebhookEndpointInput', { description: 'What to change in a webhook endpoint; absent fields stay as they are.' })
export class ChangeWebhookEndpointInput extends ChangeWebhookEndpointDto {
  @Field(() => ID, { description: 'The endpoint to change.' })
  @IsString()
  @MaxLength(100)
  id: string;
}
