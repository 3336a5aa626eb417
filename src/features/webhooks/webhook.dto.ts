import { applyDecorators } from '@nestjs/common';
import { InputType } from '@nestjs/graphql';
import { ArrayMaxSize, IsArray, IsBoolean, IsEnum, IsString, MaxLength } from 'class-validator';
import { ID_PATTERN } from '../../domain/health-key';
import { HealthEventType } from '../events/event-catalogue';
import { Scope } from '../../domain/scope';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_FILTER_ITEMS,
  MAX_WEBHOOK_URL_LENGTH,
  WebhookEndpointSettings,
  WebhookFormat,
} from '../../domain/webhooks';
import { ShapeField } from '../../shapes/shape-field';
import { changeRequestOf, createRequestOf } from '../../shapes/request-of';
import { IsId } from '../../shapes/health-key.dto';
import { LimitQuery, MAX_PAGE_SIZE } from '../../shapes/page-size';
import { IANA_TIME_ZONE } from '../../shapes/request-formats';

const EVERY = 'empty or absent: every';

function UrlField(optional: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(
      `Where deliveries are POSTed: an http(s) URL without credentials. Private and loopback targets are refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS${optional ? '; unchanged when absent' : ''}.`,
      {
        type: () => String,
        optional,
        openapi: {
          type: String,
          maxLength: MAX_WEBHOOK_URL_LENGTH,
          pattern: '^https?://',
          example: 'https://hooks.example.com/tool-health',
        },
      },
    ),
    IsString(),
    MaxLength(MAX_WEBHOOK_URL_LENGTH),
  );
}

function DescriptionField(change: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(`What the endpoint is for${change ? '; unchanged when absent' : ' (default empty)'}.`, {
      type: () => String,
      optional: true,
      openapi: { type: String, maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH, example: 'on-call channel' },
    }),
    IsString(),
    MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH),
  );
}

function EventTypesField(optional: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(`The event types to deliver (${EVERY})${optional ? '; unchanged when absent' : ''}.`, {
      type: () => [HealthEventType],
      optional: true,
      openapi: { enum: HealthEventType, enumName: 'HealthEventType', isArray: true, maxItems: MAX_WEBHOOK_FILTER_ITEMS },
    }),
    IsArray(),
    ArrayMaxSize(MAX_WEBHOOK_FILTER_ITEMS),
    IsEnum(HealthEventType, { each: true }),
  );
}

function ScopesField(optional: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(`Only events of entries at these scopes (${EVERY})${optional ? '; unchanged when absent' : ''}.`, {
      type: () => [Scope],
      optional: true,
      openapi: { enum: Scope, enumName: 'Scope', isArray: true, maxItems: MAX_WEBHOOK_FILTER_ITEMS },
    }),
    IsArray(),
    ArrayMaxSize(MAX_WEBHOOK_FILTER_ITEMS),
    IsEnum(Scope, { each: true }),
  );
}

function IdsField(description: string, optional: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(`${description} (${EVERY})${optional ? '; unchanged when absent' : ''}.`, {
      type: () => [String],
      optional: true,
      openapi: { type: 'array', items: { type: 'string', pattern: ID_PATTERN.source }, maxItems: MAX_WEBHOOK_FILTER_ITEMS },
    }),
    IsArray(),
    ArrayMaxSize(MAX_WEBHOOK_FILTER_ITEMS),
    IsId({ each: true }),
  );
}

function FormatField(optional: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(
      `STANDARD (Standard Webhooks JSON, the default) or SLACK (a Slack incoming-webhook body: { "text": … })${optional ? '; unchanged when absent' : ''}.`,
      {
        type: () => WebhookFormat,
        optional: true,
        openapi: { enum: WebhookFormat, enumName: 'WebhookFormat' },
      },
    ),
    IsEnum(WebhookFormat),
  );
}

function TimeZoneField(optional: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(`The IANA time zone of the times in SLACK texts (default UTC)${optional ? '; unchanged when absent' : ''}.`, {
      type: () => String,
      optional: true,
      openapi: { type: String, maxLength: 64, example: 'Europe/Berlin', ...IANA_TIME_ZONE },
    }),
    IsString(),
    MaxLength(64),
  );
}

function EnabledField(optional: boolean): PropertyDecorator {
  return applyDecorators(
    ShapeField(
      optional
        ? 'Enable or disable deliveries; enabling a disabled endpoint resumes where it stopped. Unchanged when absent.'
        : 'Deliver at once (default true).',
      { type: () => Boolean, optional: true, openapi: { type: Boolean } },
    ),
    IsBoolean(),
  );
}

/**
 * Each setting of an endpoint, declared once for both requests: the decorator of its property in
 * the create request (`change` false) and in the change request (`change` true: optional,
 * "unchanged when absent"). Keyed by the domain's WebhookEndpointSettings, so a setting the
 * domain adds without its request field here (or the reverse) fails `tsc`.
 */
const ENDPOINT_SETTING_FIELDS: { [K in keyof WebhookEndpointSettings]-?: (change: boolean) => PropertyDecorator } = {
  url: UrlField,
  description: DescriptionField,
  eventTypes: EventTypesField,
  toolNames: (change) => IdsField('Only events of these tools', change),
  scopes: ScopesField,
  tenantIds: (change) =>
    IdsField(
      change ? 'Only events of these tenants' : 'Only events of these tenants (an entry at TENANT scope, or one whose stored tenant it is)',
      change,
    ),
  format: FormatField,
  timeZone: TimeZoneField,
  enabled: EnabledField,
};

/** The settings' names, in the order the requests declare them. */
export const ENDPOINT_SETTINGS = Object.keys(ENDPOINT_SETTING_FIELDS) as (keyof WebhookEndpointSettings)[];

/** A webhook endpoint to register: one definition (P112), REST body and CreateWebhookEndpointInput. */
@InputType({ isAbstract: true })
export class CreateWebhookEndpointDto extends createRequestOf<WebhookEndpointSettings, 'url'>(
  'CreateWebhookEndpointBase',
  ENDPOINT_SETTING_FIELDS,
) {}

/** What changes in an endpoint; absent fields stay. REST PATCH body and, with the id, ChangeWebhookEndpointInput (P112). */
@InputType({ isAbstract: true })
export class ChangeWebhookEndpointDto extends changeRequestOf<WebhookEndpointSettings>(
  'ChangeWebhookEndpointBase',
  ENDPOINT_SETTING_FIELDS,
) {}

export const MAX_WEBHOOK_LIST = MAX_PAGE_SIZE;

export class WebhookListQueryDto {
  @LimitQuery('How many at most.')
  limit?: number;
}
