import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Role } from '../domain/role';
import { Roles } from '../auth/roles.decorator';
import { MetricsService } from './metrics.service';
import { ApiContract } from '../errors/openapi-errors';

/** Prometheus scrape endpoint; needs a key with audit-reader (or admin), like every other read of state. */
@ApiTags('ops')
@ApiSecurity('api-key')
@Roles(Role.AUDIT_READER)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format 0.0.4', schema: { type: 'string' } })
  @ApiContract(
    'scrapeMetrics',
    'Prometheus metrics',
    'Request latency per route, documents by scope and status, cooldown hits, diagnoses spawned and avoided, in the Prometheus text format.',
  )
  async scrape(@Res({ passthrough: true }) reply: { header(name: string, value: string): unknown }): Promise<string> {
    const { contentType, body } = await this.metrics.render();
    reply.header('content-type', contentType);
    return body;
  }
}
