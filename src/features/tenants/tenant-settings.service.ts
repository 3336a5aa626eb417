import { Injectable } from '@nestjs/common';
import { Principal, actorOf } from '../../auth/principal';
import { Clock } from '../../runtime/clock';
import { AppConfig } from '../../config/app-config';
import { validateId } from '../../domain/health-key';
import { TenantSettingsRepository } from '../../persistence/tenant-settings/tenant-settings.repository';
import { HealthStore } from '../../write-path/health-store.service';
import { TenantSettingsView, toTenantSettingsView } from './tenant-settings.view';

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
    return toTenantSettingsView(tenantId, await this.repository.find(tenantId), this.config.historyLimitDefault);
  }

  async setHistoryLimit(tenantId: string, historyLimit: number | null, by: Principal): Promise<TenantSettingsView> {
    validateId('tenantId', tenantId);
    const saved = await this.repository.setHistoryLimit(tenantId, historyLimit, actorOf(by), this.clock.now());
    this.store.forgetTenant(tenantId);
    return toTenantSettingsView(tenantId, saved, this.config.historyLimitDefault);
  }
}
