import { Args, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../domain/role';
import { Clock } from '../../runtime/clock';
import { nullsAbsent } from '../../shapes/admin-actor';
import { MAX_WEBHOOK_LIST } from './webhook.dto';
import { CreateWebhookEndpointInput, ChangeWebhookEndpointInput } from './webhook.input';
import {
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
  toWebhookDeliveryView,
  toWebhookEndpointView,
} from './webhook.view';
import { WebhooksService } from './webhooks.service';

const FIRST = { type: () => Int, defaultValue: 100, description: `How many at most (1–${MAX_WEBHOOK_LIST}).` };

/** D24 on the admin API: admins write, audit-readers read (D17). */
@Resolver(() => WebhookEndpointView)
export class WebhooksResolver {
  constructor(
    private readonly service: WebhooksService,
    private readonly clock: Clock,
  ) {}

  @Query(() => [WebhookEndpointView], { description: 'The webhook endpoints, oldest first (never their secrets).' })
  @Roles(Role.AUDIT_READER)
  async webhookEndpoints(@Args('first', FIRST) first: number): Promise<WebhookEndpointView[]> {
    const now = this.clock.now();
    return (await this.service.list(bounded(first))).map((e) => toWebhookEndpointView(e, now));
  }

  @Query(() => WebhookEndpointView, { description: 'One webhook endpoint.' })
  @Roles(Role.AUDIT_READER)
  async webhookEndpoint(@Args('id', { type: () => ID, description: 'The endpoint.' }) id: string): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.service.get(id), this.clock.now());
  }

  @Query(() => [WebhookDeliveryView], { description: "An endpoint's deliveries, newest first, each with its attempts." })
  @Roles(Role.AUDIT_READER)
  async webhookDeliveries(
    @Args('endpointId', { type: () => ID, description: 'The endpoint.' }) endpointId: string,
    @Args('first', FIRST) first: number,
  ): Promise<WebhookDeliveryView[]> {
    return (await this.service.deliveriesOf(endpointId, bounded(first))).map(toWebhookDeliveryView);
  }

  @Mutation(() => WebhookEndpointSecretView, {
    description: 'Register a webhook endpoint; the answer carries its signing secret, shown this once.',
  })
  @Roles(Role.ADMIN)
  async createWebhookEndpoint(
    @Args('input', { description: 'The endpoint.' }) input: CreateWebhookEndpointInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<WebhookEndpointSecretView> {
    const { endpoint, secret } = await this.service.create(nullsAbsent(input) as CreateWebhookEndpointInput, by);
    return { endpoint: toWebhookEndpointView(endpoint, this.clock.now()), secret };
  }

  @Mutation(() => WebhookEndpointView, { description: 'Change a webhook endpoint, or disable or enable it.' })
  @Roles(Role.ADMIN)
  async changeWebhookEndpoint(
    @Args('input', { description: 'The endpoint and what changes.' }) input: ChangeWebhookEndpointInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<WebhookEndpointView> {
    const { id, ...change } = nullsAbsent(input);
    return toWebhookEndpointView(await this.service.update(id, change, by), this.clock.now());
  }

  @Mutation(() => WebhookEndpointView, { description: 'Remove a webhook endpoint and its delivery log.' })
  @Roles(Role.ADMIN)
  async deleteWebhookEndpoint(@Args('id', { type: () => ID, description: 'The endpoint.' }) id: string): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.service.delete(id), this.clock.now());
  }

  @Mutation(() => WebhookEndpointSecretView, {
    description: 'A new signing secret (shown this once); the old one signs on beside it for 24 h.',
  })
  @Roles(Role.ADMIN)
  async rotateWebhookSecret(
    @Args('id', { type: () => ID, description: 'The endpoint.' }) id: string,
    @CurrentPrincipal() by: Principal,
  ): Promise<WebhookEndpointSecretView> {
    const { endpoint, secret } = await this.service.rotateSecret(id, by);
    return { endpoint: toWebhookEndpointView(endpoint, this.clock.now()), secret };
  }

  @Mutation(() => WebhookDeliveryView, { description: 'Send a signed test ping now; the delivery with its attempt.' })
  @Roles(Role.ADMIN)
  async pingWebhookEndpoint(@Args('id', { type: () => ID, description: 'The endpoint.' }) id: string): Promise<WebhookDeliveryView> {
    return toWebhookDeliveryView(await this.service.ping(id));
  }

  @Mutation(() => WebhookDeliveryView, { description: 'Send one delivery again now, with the same webhook-id.' })
  @Roles(Role.ADMIN)
  async resendWebhookDelivery(
    @Args('id', { type: () => ID, description: 'The delivery (its webhook-id).' }) id: string,
  ): Promise<WebhookDeliveryView> {
    return toWebhookDeliveryView(await this.service.resend(id));
  }
}

function bounded(first: number): number {
  return Math.min(Math.max(Math.trunc(first), 1), MAX_WEBHOOK_LIST);
}
