import { Injectable } from '@nestjs/common';
import { Principal, actorOf } from '../../auth/principal';
import { Clock } from '../../runtime/clock';
import { AppConfig } from '../../config/app-config';
import { validateId } from '../../domain/health-key';
import { TenantSettings, TenantSettingsRepository } from '../../persistence/tenant-settings/tenant-settings.repository';
import { HealthStore } from '../../write-path/health-store.service';
import { TenantSettingsView } from './tenant-settings.view';

@Injectable()
export class TenantSettingsService {
  constructor(
    private readonly repository: TenantSettingsRepository,
    private readonly store: HealthStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async get(tenantId: string): Promise<TenantSettingsView> {
    validateId('tenantId', tenantId);
    return this.view(tenantId, await this.repository.find(tenantId));
  }

  async setHistoryLimit(tenantId: string, historyLimit: number | null, by: Principal): Promise<TenantSettingsView> {
    validateId('tenantId', tenantId);
    const saved = await this.repository.setHistoryLimit(tenantId, historyLimit, actorOf(by), this.clock.now());
    this.store.forgetTenant(tenantId);
    return this.view(tenantId, saved);
  }

  private view(tenantId: string, settings: TenantSettings | null): TenantSettingsView {
    return {
      tenantId,
      historyLimit: settings?.historyLimit ?? null,
      effectiveHistoryLimit: settings?.historyLimit ?? this.config.historyLimitDefault,
      updatedAt: settings?.updatedAt ?? null,
      updatedBy: settings?.updatedBy ?? null,
    };
  }
}
