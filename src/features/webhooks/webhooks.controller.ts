import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiParam, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../domain/role';
import { ApiContract } from '../../errors/openapi-errors';
import { Clock } from '../../runtime/clock';
import { CreateWebhookEndpointDto, ChangeWebhookEndpointDto, WebhookListQueryDto } from './webhook.dto';
import {
  WebhookDeliveryView,
  WebhookEndpointSecretView,
  WebhookEndpointView,
  toWebhookDeliveryView,
  toWebhookEndpointView,
} from './webhook.view';
import { WebhooksService } from './webhooks.service';

const ENDPOINT_ID = {
  name: 'id',
  schema: { type: 'string', maxLength: 100 },
  description: 'The endpoint id, as createWebhookEndpoint answered it.',
  example: '0db94c8e-6f1a-4c43-9a57-2b1e8f3a5d10',
} as const;

/** Webhook endpoints, registered by admins; audit-readers read them and their deliveries (D17) (D24). */
@ApiTags('webhooks')
@ApiExtraModels(ChangeWebhookEndpointDto) // its PATCH body is a nullable reference to it (P144)
@ApiSecurity('api-key')
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(
    private readonly service: WebhooksService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @Roles(Role.ADMIN)
  @ApiContract(
    'createWebhookEndpoint',
    'Register a webhook endpoint',
    'Events of the outbox that pass the filters are POSTed to the URL, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). The answer carries the signing secret, shown this once. Admin only.',
  )
  @ApiCreatedResponse({ type: WebhookEndpointSecretView })
  async create(@Body() dto: CreateWebhookEndpointDto, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointSecretView> {
    const { endpoint, secret } = await this.service.create(dto, principal);
    return { endpoint: toWebhookEndpointView(endpoint, this.clock.now()), secret };
  }

  @Get()
  @Roles(Role.AUDIT_READER)
  @ApiContract('listWebhookEndpoints', 'List webhook endpoints', 'Every registered endpoint, oldest first, without secrets.')
  @ApiOkResponse({ type: [WebhookEndpointView] })
  async list(@Query() query: WebhookListQueryDto): Promise<WebhookEndpointView[]> {
    const now = this.clock.now();
    return (await this.service.list(query.limit)).map((e) => toWebhookEndpointView(e, now));
  }

  @Get(':id')
  @Roles(Role.AUDIT_READER)
  @ApiContract('getWebhookEndpoint', 'Read a webhook endpoint', 'One endpoint, without its secret.')
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointView })
  async get(@Param('id') id: string): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.service.get(id), this.clock.now());
  }

  @Patch(':id')
  @Roles(Role.ADMIN)
  @ApiContract(
    'changeWebhookEndpoint',
    'Change a webhook endpoint',
    'Changes its URL, filters, format or description, or disables or enables it (enabled again, it resumes at the event that failed). Admin only.',
  )
  @ApiParam(ENDPOINT_ID)
  @ApiBody({
    required: false,
    schema: { type: 'object', nullable: true, allOf: [{ $ref: getSchemaPath(ChangeWebhookEndpointDto) }] },
    description: 'The fields to change; no body (or null) changes nothing.',
  })
  @ApiOkResponse({ type: WebhookEndpointView })
  async change(
    @Param('id') id: string,
    @Body() dto: ChangeWebhookEndpointDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.service.update(id, dto ?? {}, principal), this.clock.now());
  }

  @Delete(':id')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract('deleteWebhookEndpoint', 'Remove a webhook endpoint', 'Removes the endpoint and its delivery log. Admin only.')
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointView, description: 'the endpoint removed' })
  async delete(@Param('id') id: string): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.service.delete(id), this.clock.now());
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract(
    'rotateWebhookSecret',
    'Rotate the signing secret',
    'Makes a new secret, shown in this answer only; the old one keeps signing beside it for 24 h (deliveries carry both signatures), so receivers can switch. Admin only.',
  )
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointSecretView })
  async rotate(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointSecretView> {
    const { endpoint, secret } = await this.service.rotateSecret(id, principal);
    return { endpoint: toWebhookEndpointView(endpoint, this.clock.now()), secret };
  }

  @Post(':id/ping')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract(
    'pingWebhookEndpoint',
    'Send a test ping',
    'POSTs a signed WEBHOOK_PING now (at most 10 s) and answers the delivery with its attempt: the status, latency and the start of the answer. Admin only.',
  )
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookDeliveryView })
  async ping(@Param('id') id: string): Promise<WebhookDeliveryView> {
    return toWebhookDeliveryView(await this.service.ping(id));
  }

  @Get(':id/deliveries')
  @Roles(Role.AUDIT_READER)
  @ApiContract('listWebhookDeliveries', 'List deliveries', "An endpoint's deliveries, newest first, each with its attempts.")
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: [WebhookDeliveryView] })
  async deliveries(@Param('id') id: string, @Query() query: WebhookListQueryDto): Promise<WebhookDeliveryView[]> {
    return (await this.service.deliveriesOf(id, query.limit)).map(toWebhookDeliveryView);
  }
}

/** One delivery sent again (P187). */
@ApiTags('webhooks')
@ApiSecurity('api-key')
@Controller('v1/webhook-deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly service: WebhooksService) {}

  @Post(':id/resend')
  @HttpCode(200)
  @Roles(Role.ADMIN)
  @ApiContract(
    'resendWebhookDelivery',
    'Resend a delivery',
    'Sends the event again now with the same webhook-id (receivers drop repeats by it), outside the queue, and answers the delivery with the new attempt. Admin only.',
  )
  @ApiParam({
    name: 'id',
    schema: { type: 'string', maxLength: 100 },
    description: 'The delivery id (its webhook-id).',
    example: 'msg_4f1c2a9e0b7d4e21a3c5f6e7d8091a2b',
  })
  @ApiOkResponse({ type: WebhookDeliveryView })
  async resend(@Param('id') id: string): Promise<WebhookDeliveryView> {
    return toWebhookDeliveryView(await this.service.resend(id));
  }
}
