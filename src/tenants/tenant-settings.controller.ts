import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { SetHistoryLimitDto, TenantSettingsView } from './dto/tenant-settings.dto';
import { TenantSettingsService } from './tenant-settings.service';

@ApiTags('tenant settings')
@ApiSecurity('api-key')
@Controller('v1/tenants/:tenantId/settings')
export class TenantSettingsController {
  constructor(private readonly service: TenantSettingsService) {}

  @Get()
  @Roles(Role.AUDIT_READER)
  @ApiOkResponse({ type: TenantSettingsView })
  get(@Param('tenantId') tenantId: string): Promise<TenantSettingsView> {
    return this.service.get(tenantId);
  }

  @Put('history-limit')
  @Roles(Role.ADMIN)
  @ApiOkResponse({ type: TenantSettingsView })
  setHistoryLimit(
    @Param('tenantId') tenantId: string,
    @Body() dto: SetHistoryLimitDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<TenantSettingsView> {
    return this.service.setHistoryLimit(tenantId, dto.historyLimit, principal);
  }
}
