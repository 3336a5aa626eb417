import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../../domain/role';
import { Roles } from '../../auth/roles.decorator';
import { SchemaBody } from '../../errors/validation';
import { DispatchOutcomeService } from './dispatch-outcome.service';
import {
  FAILURE_REPORT_SCHEMA,
  FailureOutcomeView,
  FailureReportDto,
  OUTCOME_PATTERN_MESSAGES,
  SUCCESS_REPORT_SCHEMA,
  SuccessOutcomeView,
  SuccessReportDto,
} from './outcome.dto';
import { ApiContract } from '../../errors/openapi-errors';
import { OUTCOME_BATCH_SCHEMA, OutcomeBatchDto, OutcomeBatchView } from './outcome-batch.dto';
import { OutcomeBatchService } from './outcome-batch.service';

/**
 * The dispatcher reports every call outcome here (hot path). Bodies are checked by compiled JSON
 * schemas (@SchemaBody) rather than the global class-validator pipe: same rules, same 400 naming
 * the field, a fraction of the cost per request (docs/performance.md).
 */
@ApiTags('dispatcher')
@ApiSecurity('api-key')
@Roles(Role.DISPATCHER)
@Controller('v1/outcomes')
export class DispatchOutcomeController {
  constructor(
    private readonly service: DispatchOutcomeService,
    private readonly batch: OutcomeBatchService,
  ) {}

  @Post('success')
  @HttpCode(200)
  @ApiOkResponse({ type: SuccessOutcomeView })
  @ApiContract(
    'reportSuccess',
    'Report a successful tool call',
    'The dispatcher reports every call that worked. When the tool was marked down or intermittent in this context, or a cooldown of a technical error was running, the success clears them; name the error signatures it disproves in errorSignatures. A success that changes nothing writes nothing.',
  )
  success(
    @SchemaBody(SuccessReportDto, SUCCESS_REPORT_SCHEMA, OUTCOME_PATTERN_MESSAGES) dto: SuccessReportDto,
  ): Promise<SuccessOutcomeView> {
    return this.service.reportSuccess(dto);
  }

  @Post('failure')
  @HttpCode(200)
  @ApiOkResponse({ type: FailureOutcomeView })
  @ApiContract(
    'reportFailure',
    'Report a failed tool call',
    "The dispatcher reports every call that failed and learns what to do: whether a diagnosis may be spawned now (spawn), whether to pass the error back to the LLM (reflectError), and until when the same error is in cooldown. Codes that are not the tool's fault (NOT_REGISTERED, DISALLOWED) change nothing.",
  )
  failure(
    @SchemaBody(FailureReportDto, FAILURE_REPORT_SCHEMA, OUTCOME_PATTERN_MESSAGES) dto: FailureReportDto,
  ): Promise<FailureOutcomeView> {
    return this.service.reportFailure(dto);
  }

  @Post('batch')
  @HttpCode(200)
  @ApiOkResponse({ type: OutcomeBatchView })
  @ApiContract(
    'reportOutcomes',
    'Report many tool calls at once',
    'Up to 500 success and failure reports in one request, each the body of its single route plus `outcome`. They are applied in order and answered in order, each exactly as its single route would answer it: a bad report gets its own error answer (status 400 naming the field) and the others are applied all the same. One request costs the service far less than one request per report: send what piled up since the last batch, e.g. every 50 ms or 50 reports.',
  )
  reportBatch(@SchemaBody(OutcomeBatchDto, OUTCOME_BATCH_SCHEMA) dto: OutcomeBatchDto): Promise<OutcomeBatchView> {
    return this.batch.reportBatch(dto.items);
  }
}
