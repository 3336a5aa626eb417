import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * Structured JSON logs (one object per line) through pino, without a per-request log line:
 * per-request logging costs a large share of the hot path (docs/performance.md), so requests are
 * measured by /metrics instead and only errors and lifecycle events are logged.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Logger;

  constructor(level: string) {
    this.pino = pino({ level, base: { service: 'tool-availability' }, timestamp: pino.stdTimeFunctions.isoTime });
  }

  log(message: unknown, context?: string): void {
    this.pino.info({ context }, String(message));
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const stack = context !== undefined ? stackOrContext : undefined;
    this.pino.error({ context: context ?? stackOrContext, stack }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.pino.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.pino.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.pino.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string): void {
    this.pino.fatal({ context }, String(message));
  }
}
