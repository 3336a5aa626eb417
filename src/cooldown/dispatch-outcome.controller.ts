import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../auth/role';
import { Roles } from '../auth/roles.decorator';
import { DispatchOutcomeService } from './dispatch-outcome.service';
import { FailureOutcomeView, FailureReportDto, SuccessOutcomeView, SuccessReportDto } from './dto/outcome.dto';

/** The dispatcher reports every call outcome here (hot path). */
@ApiTags('dispatcher')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER)
@Controller('v1/outcomes')
export class DispatchOutcomeController {
  constructor(private readonly service: DispatchOutcomeService) {}

  @Post('success')
  @HttpCode(200)
  @ApiOkResponse({ type: SuccessOutcomeView })
  success(@Body() dto: SuccessReportDto): Promise<SuccessOutcomeView> {
    return this.service.reportSuccess(dto);
  }

  @Post('failure')
  @HttpCode(200)
  @ApiOkResponse({ type: FailureOutcomeView })
  failure(@Body() dto: FailureReportDto): Promise<FailureOutcomeView> {
    return this.service.reportFailure(dto);
  }
}
