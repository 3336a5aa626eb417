export interface TenantSettings {
  tenantId: string;
  historyLimit: number | null;
  updatedAt: Date;
  updatedBy: string;
}

export abstract class TenantSettingsRepository {
  abstract find(tenantId: string): Promise<TenantSettings | null>;
  abstract setHistoryLimit(tenantId: string, historyLimit: number | null, by: string, now: Date): Promise<TenantSettings>;
}
