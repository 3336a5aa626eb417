import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { TenantIdArgs } from './tenant-id.args';
import { SetTenantHistoryLimitInput } from './tenant-settings.input';
import { TenantSettingsView } from './tenant-settings.view';
import { TenantSettingsService } from './tenant-settings.service';

/** Tenant settings (D12): read by audit-readers, written by admins (D17). */
@Resolver(() => TenantSettingsView)
@Roles(Role.ADMIN)
export class TenantSettingsResolver {
  constructor(private readonly settings: TenantSettingsService) {}

  @Query(() => TenantSettingsView, { description: "A tenant's settings (its history limit)." })
  @Roles(Role.AUDIT_READER)
  tenantSettings(@Args() args: TenantIdArgs): Promise<TenantSettingsView> {
    return this.settings.get(args.tenantId);
  }

  @Mutation(() => TenantSettingsView, { description: "Set (or with null reset) how many history items a tenant's entries keep." })
  setTenantHistoryLimit(
    @Args('input', { description: 'What to write, and to which entry.' }) input: SetTenantHistoryLimitInput,
    @CurrentPrincipal() by: Principal,
  ): Promise<TenantSettingsView> {
    return this.settings.setHistoryLimit(input.tenantId, input.historyLimit ?? null, by);
  }
}
