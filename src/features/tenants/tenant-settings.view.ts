import { Int } from '@nestjs/graphql';
import { TenantSettings } from '../../persistence/tenant-settings/tenant-settings.repository';
import type { SameKeys } from '../../domain/same-keys';
import { INSTANT, NULLABLE_STRING, ViewField, ViewFieldOptions, ViewType } from '../../shapes/view-field';

const INTEGER: ViewFieldOptions = { type: () => Int, openapi: { type: 'integer' } };

/** A tenant's settings (D12) as both APIs answer them (P115), built by toTenantSettingsView below. */
@ViewType('TenantSettings', "A tenant's settings.")
export class TenantSettingsView {
  @ViewField('The tenant (organisation).') tenantId: string;
  @ViewField('The stored setting; null = none (the default applies).', { ...INTEGER, nullable: true }) historyLimit: number | null;
  @ViewField('The history limit writes use now: the setting or the default.', INTEGER) effectiveHistoryLimit: number;
  @ViewField('When the settings were last written; null when never.', { ...INSTANT, nullable: true }) updatedAt: Date | null;
  @ViewField('Who last changed the settings; null when nobody has.', NULLABLE_STRING) updatedBy: string | null;
}

/** The one way both APIs make it: the stored settings (null when none) and the default they fall back to. */
/** The answer shows every field of the settings, plus the limit in effect: a field the settings add without its `@ViewField` fails `tsc` here. */
export const TENANT_SETTINGS_VIEW_SHOWS_THE_SETTINGS: SameKeys<keyof TenantSettingsView, keyof TenantSettings | 'effectiveHistoryLimit'> =
  true;

export function toTenantSettingsView(tenantId: string, settings: TenantSettings | null, historyLimitDefault: number): TenantSettingsView {
  return {
    tenantId,
    historyLimit: settings?.historyLimit ?? null,
    effectiveHistoryLimit: settings?.historyLimit ?? historyLimitDefault,
    updatedAt: settings?.updatedAt ?? null,
    updatedBy: settings?.updatedBy ?? null,
  };
}
