import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../../auth/current-principal.decorator';
import { Principal } from '../../auth/principal';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { SetHistoryLimitDto } from './tenant-settings.dto';
import { TenantSettingsView } from './tenant-settings.view';
import { TenantSettingsService } from './tenant-settings.service';
import { ApiContract } from '../../errors/openapi-errors';
import { ID_PATTERN } from '../../domain/health-key';

@ApiTags('tenant settings')
@ApiSecurity('api-key')
@Controller('v1/tenants/:tenantId/settings')
export class TenantSettingsController {
  constructor(private readonly service: TenantSettingsService) {}

  @Get()
  @Roles(Role.AUDIT_READER)
  @ApiOkResponse({ type: TenantSettingsView })
  @ApiContract(
    'getTenantSettings',
    "Read a tenant's settings",
    "The tenant's stored settings and the values writes use now (the setting, or the default when none is set).",
  )
  @ApiParam({
    name: 'tenantId',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    description: 'The tenant.',
    example: 'example-tenant',
  })
  get(@Param('tenantId') tenantId: string): Promise<TenantSettingsView> {
    return this.service.get(tenantId);
  }

  @Put('history-limit')
  @Roles(Role.ADMIN)
  @ApiOkResponse({ type: TenantSettingsView })
  @ApiContract(
    'setTenantHistoryLimit',
    'Set how much history a tenant keeps',
    "How many history items each of the tenant's entries keeps; null goes back to the default. Applies to the next write of each entry.",
  )
  @ApiParam({
    name: 'tenantId',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    description: 'The tenant.',
    example: 'example-tenant',
  })
  setHistoryLimit(
    @Param('tenantId') tenantId: string,
    @Body() dto: SetHistoryLimitDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TenantSettingsView> {
    return this.service.setHistoryLimit(tenantId, dto.historyLimit, principal);
  }
}
