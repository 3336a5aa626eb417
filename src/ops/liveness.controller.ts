import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/roles.decorator';
import { ReadinessService } from './readiness.service';
import { ApiContract } from '../errors/openapi-errors';

export class ProbeView {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: 'ok' | 'unavailable';
  @ApiProperty({ required: false }) database?: 'up' | 'down';
}

/** Orchestrator probes: open without a key (D17). */
@ApiTags('probes')
@Public()
@Controller('health')
export class LivenessController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('live')
  @HttpCode(200)
  @ApiOkResponse({ type: ProbeView })
  @ApiContract(
    'checkLiveness',
    'Is the process alive?',
    "Answers 200 while the process runs, without touching the database. For an orchestrator's liveness probe; needs no API key.",
  )
  live(): ProbeView {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOkResponse({ type: ProbeView })
  @ApiServiceUnavailableResponse({ type: ProbeView })
  @ApiContract(
    'checkReadiness',
    'Can the service take traffic?',
    "Answers 200 when the database answers and 503 when it does not (or while the service shuts down). For an orchestrator's readiness probe; needs no API key.",
  )
  ready(@Res({ passthrough: true }) reply: { status(code: number): unknown }): ProbeView {
    const { ready, database } = this.readiness.check();
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', database };
  }
}
