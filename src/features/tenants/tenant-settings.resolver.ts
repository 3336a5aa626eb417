import { Args, Query, Resolver } from '@nestjs/graphql';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { AdminQueryService } from '../../graphql/admin-query.service';
import { TenantIdArgs } from '../tool-health/query.args';
import { TenantSettingsModel } from './tenant-settings.model';

/** Tenant settings (D12), read side; the write is setTenantHistoryLimit in AdminMutationsResolver. */
@Resolver(() => TenantSettingsModel)
@Roles(Role.AUDIT_READER)
export class TenantSettingsResolver {
  constructor(private readonly queries: AdminQueryService) {}

  @Query(() => TenantSettingsModel, { description: "A tenant's settings (its history limit)." })
  tenantSettings(@Args() args: TenantIdArgs): Promise<TenantSettingsModel> {
    return this.queries.tenantSettingsOf(args.tenantId);
  }
}
