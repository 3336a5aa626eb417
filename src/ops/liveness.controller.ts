import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/roles.decorator';
import { ReadinessService } from './readiness.service';

export class ProbeView {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: 'ok' | 'unavailable';
  @ApiProperty({ required: false }) database?: 'up' | 'down';
  @ApiProperty({ required: false, description: 'Why the instance is not ready although the database answers (the writer lease, P40).' })
  message?: string;
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
  live(): ProbeView {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOkResponse({ type: ProbeView })
  @ApiServiceUnavailableResponse({ type: ProbeView })
  ready(@Res({ passthrough: true }) reply: { status(code: number): unknown }): ProbeView {
    const { ready, database, reason } = this.readiness.check();
    reply.status(ready ? 200 : 503);
    if (ready) return { status: 'ok', database };
    return reason ? { status: 'unavailable', database, message: reason } : { status: 'unavailable', database };
  }
}
