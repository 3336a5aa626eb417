import { Injectable } from '@nestjs/common';
import { DomainError } from '../../domain/domain-error';
import { describeKey, tenantOf, validateId, validateKey } from '../../domain/health-key';
import { Scope } from '../../domain/scope';
import { markAvailable, markIntermittent, markUnavailable } from '../../domain/system-writes';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { HealthKey, ToolHealthDocument } from '../../domain/tool-health-document';
import { HealthStore } from '../../write-path/health-store.service';
import { MutationResult } from '../../persistence/tool-health/tool-health.repository';
import { ClientDisconnectDto, ClientReconnectDto, SessionToolsResultView } from './client-session.dto';
import { MarkAvailableDto, MarkIntermittentDto, MarkUnavailableDto } from './system-write.dto';
import { BulkMarkAvailableDto, BulkMarkIntermittentDto, BulkMarkUnavailableDto, BulkSystemWriteView } from './bulk-system-write.dto';
import { errorBody } from '../../errors/http-exception.filter';
import { HealthReducer } from '../../domain/health-entry';
import { WriteEnvironment } from '../../write-path/health-store.service';

/** §7 first row: system code's binary events, as pure reducers run through the store. */
@Injectable()
export class SystemWritesService {
  constructor(private readonly store: HealthStore) {}

  async markUnavailable(dto: MarkUnavailableDto): Promise<ToolHealthDocument> {
    return (await this.writeOne(dto, unavailable(dto))).after!;
  }

  async markIntermittent(dto: MarkIntermittentDto): Promise<ToolHealthDocument> {
    return (await this.writeOne(dto, intermittent(dto))).after!;
  }

  /** 404 when nothing is stored: there is nothing to mark available. */
  async markAvailable(dto: MarkAvailableDto): Promise<ToolHealthDocument> {
    const result = await this.writeOne(dto, available(dto));
    if (!result.after) throw DomainError.notFound(`no health entry for ${describeKey(validateKey(dto))}`);
    return result.after;
  }

  /** Many tools of one scope key DOWN in one bulk write (an MCP server's connection closed) (D22). */
  markManyUnavailable(dto: BulkMarkUnavailableDto): Promise<BulkSystemWriteView> {
    return this.writeMany(dto, unavailable(dto));
  }

  markManyIntermittent(dto: BulkMarkIntermittentDto): Promise<BulkSystemWriteView> {
    return this.writeMany(dto, intermittent(dto));
  }

  /** A tool with nothing stored answers 404 alone, as its single route would. */
  markManyAvailable(dto: BulkMarkAvailableDto): Promise<BulkSystemWriteView> {
    return this.writeMany(dto, available(dto));
  }

  private writeOne(dto: MarkAvailableDto, reducerOf: ReducerOf): Promise<MutationResult> {
    const key = validateKey(dto);
    const tenantId = tenantOf(key, dto.tenantId);
    return this.store.write(key, tenantId, (env) => reducerOf(env, key, tenantId));
  }

  /**
   * One scope key, many tools: the key (scope, scopeId) is checked once — a bad one refuses the
   * request — then every tool's reducer goes to the store in one bulk write (P159).
   */
  private async writeMany(
    dto: { scope: HealthKey['scope']; scopeId?: string | null; tenantId?: string | null; toolNames: string[] },
    reducerOf: ReducerOf,
  ): Promise<BulkSystemWriteView> {
    const keys = dto.toolNames.map((toolName) => validateKey({ scope: dto.scope, scopeId: dto.scopeId, toolName }));
    const tenantId = tenantOf(keys[0], dto.tenantId);
    const written = await this.store.writeMany(keys, tenantId, (env, key) => reducerOf(env, key, tenantId));
    return {
      results: written.map((result, i) =>
        result.after
          ? { toolName: keys[i].toolName, status: 200, entry: result.after }
          : {
              toolName: keys[i].toolName,
              status: 404,
              error: { ...errorBody(DomainError.notFound(`no health entry for ${describeKey(keys[i])}`)) },
            },
      ),
    };
  }

  /** A client left: its tools go DOWN at SESSION with BACKEND_UNREACHABLE, descriptions kept (D15b). */
  async clientDisconnected(sessionId: string, dto: ClientDisconnectDto): Promise<SessionToolsResultView> {
    validateId('sessionId', sessionId);
    const tenantId = dto.tenantId ?? null;
    const changed = await this.eachTool(
      sessionId,
      dto.tools.map((t) => t.name),
      async (key, index) => {
        const tool = dto.tools[index];
        const result = await this.store.write(key, tenantId, (env) =>
          markUnavailable({
            now: env.now,
            historyLimit: env.historyLimit,
            key,
            source: dto.source,
            code: ToolErrorCode.BACKEND_UNREACHABLE,
            since: dto.at,
            note: 'client disconnected',
            description: tool.description ?? null,
            tenantId,
          }),
        );
        return result.written;
      },
    );
    return { sessionId, changed };
  }

  /** The client is back: its tools are OK again at SESSION (tools never marked stay unwritten). */
  async clientReconnected(sessionId: string, dto: ClientReconnectDto): Promise<SessionToolsResultView> {
    validateId('sessionId', sessionId);
    const tenantId = dto.tenantId ?? null;
    const changed = await this.eachTool(sessionId, dto.tools, async (key) => {
      const result = await this.store.write(key, tenantId, (env) =>
        markAvailable({ now: env.now, historyLimit: env.historyLimit, key, source: dto.source, note: 'client reconnected', tenantId }),
      );
      return result.written;
    });
    return { sessionId, changed };
  }

  private async eachTool(
    sessionId: string,
    names: string[],
    write: (key: HealthKey, index: number) => Promise<boolean>,
  ): Promise<string[]> {
    const unique = new Set(names);
    if (unique.size !== names.length) throw DomainError.invalid('tools', 'tool names must be unique');
    const written = await Promise.all(names.map((toolName, i) => write({ scope: Scope.SESSION, scopeId: sessionId, toolName }, i)));
    return names.filter((_, i) => written[i]);
  }
}

/**
 * A system write's reducer for one key, from the fields its single and bulk bodies share. The
 * write's fields are listed, not spread from `env`: in Node 20's V8 an object literal that spreads
 * one object and then adds properties builds each added one through the runtime, ~5 µs for this
 * literal against ~0.05 µs listed, once per tool of a bulk write (P361).
 */
type ReducerOf = (env: WriteEnvironment, key: HealthKey, tenantId: string | null) => HealthReducer;

function unavailable(dto: Omit<MarkUnavailableDto, 'toolName' | 'scope'>): ReducerOf {
  return (env, key, tenantId) =>
    markUnavailable({
      now: env.now,
      historyLimit: env.historyLimit,
      key,
      source: dto.source,
      code: dto.code,
      note: dto.note,
      since: dto.since ?? undefined,
      expectedRecoveryAt: dto.expectedRecoveryAt,
      tenantId,
    });
}

function intermittent(dto: Omit<MarkIntermittentDto, 'toolName' | 'scope'>): ReducerOf {
  return (env, key, tenantId) =>
    markIntermittent({
      now: env.now,
      historyLimit: env.historyLimit,
      key,
      source: dto.source,
      code: dto.code,
      note: dto.note,
      expectedRecoveryAt: dto.expectedRecoveryAt,
      tenantId,
    });
}

function available(dto: Omit<MarkAvailableDto, 'toolName' | 'scope'>): ReducerOf {
  return (env, key, tenantId) =>
    markAvailable({ now: env.now, historyLimit: env.historyLimit, key, source: dto.source, note: dto.note, tenantId });
}
