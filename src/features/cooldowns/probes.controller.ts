import { Controller, Get, Query } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { ApiContract } from '../../errors/openapi-errors';
import { OkAnswer } from '../../shapes/answer-written-by';
import { ToolHealthView } from '../../shapes/tool-health.view';
import { CooldownService } from './cooldown.service';
import { DueForProbeQueryDto } from './cooldown.dto';

/** The probe listing, beside the cooldowns whose service keeps it (same tag as before in the contract) (D11). */
@ApiTags('cooldowns')
@ApiSecurity('api-key')
@Controller('v1')
export class ProbesController {
  constructor(private readonly service: CooldownService) {}

  @Get('probes/due')
  @Roles(Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER)
  @OkAnswer([ToolHealthView])
  @ApiContract(
    'listToolsDueForProbe',
    'List down tools due for a probe',
    'Entries that are DOWN without an expected recovery time and have not been checked for a while, oldest first: the tools a diagnosis engine should probe.',
  )
  dueForProbe(@Query() query: DueForProbeQueryDto): Promise<ToolHealthView[]> {
    return this.service.dueForProbe(query.limit);
  }
}
