import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { getConnectionToken } from '@nestjs/mongoose';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { Connection } from 'mongoose';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { configureApp, fastifyOptions } from '../../src/app.setup';
import { Clock } from '../../src/runtime/clock';
import { BookkeepingBuffer } from '../../src/features/outcomes/bookkeeping-buffer.service';
import { OutcomeStatsRecorder } from '../../src/features/tool-stats/outcome-stats-recorder.service';
import { MaintenanceService } from '../../src/features/maintenance/maintenance.service';
import { WiderEvidenceService } from '../../src/features/wider-evidence/wider-evidence.service';
import { EventRelay } from '../../src/write-path/event-relay.service';
import { HealthStore } from '../../src/write-path/health-store.service';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { API_KEYS_ENV, KEYS } from './api-keys';
import { FakeClock } from './fake-clock';
import { servedOpenApiAnswers } from './openapi-answers';
import { testDatabaseUri, testDbKind } from './test-database';
import type { Document } from 'mongodb';
import { READ_ANCHOR_COLLECTION, READ_ANCHOR_ID } from '../../src/persistence/tool-presence/manifest-read';

export { testDatabaseUri, testDbKind };

export interface TestApp {
  app: NestFastifyApplication;
  clock: FakeClock;
  config: AppConfig;
  connection: Connection;
  http: ReturnType<typeof request>;
  /**
   * Between tests: writes out what the previous test left buffered in memory (D10b hits) and lets
   * the event relay finish, then empties the database — flushed after the reset, old hits would
   * land on a new test's document of the same `_id` — and has the instance read again what it
   * caches of it.
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    MONGODB_URI: testDatabaseUri(),
    API_KEYS: API_KEYS_ENV,
    DB_MONITOR_COMMANDS: 'true',
    DB_SERVER_SELECTION_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'silent',
    // Pins end by the test's fake clock; a test that wants PIN_ENDED on a timer turns it on.
    PIN_WATCH_MS: '0',
    ...extra,
  };
}

export async function createTestApp(
  options: { env?: Record<string, string>; clock?: FakeClock; override?: (builder: TestingModuleBuilder) => TestingModuleBuilder } = {},
): Promise<TestApp> {
  const config = loadConfig(testEnv(options.env));
  const clock = options.clock ?? new FakeClock();
  const builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .overrideProvider(Clock)
    .useValue(clock);
  const moduleRef = await (options.override ? options.override(builder) : builder).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(fastifyOptions(config)), { logger: false });
  configureApp(app, config);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const connection = app.get<Connection>(getConnectionToken());
  return {
    app,
    clock,
    config,
    connection,
    http: checkedAgainstDocument(request(app.getHttpServer())),
    reset: async () => {
      // What a test left in memory is written first, then removed with the rest.
      await app.get(BookkeepingBuffer).flush();
      await app.get(OutcomeStatsRecorder).flush();
      await app.get(WiderEvidenceService).flush();
      // A relay pass still queued from the previous test would otherwise put its events into the
      // next test's empty log: it runs now, and what it writes goes with the rest.
      await app.get(EventRelay).drain();
      await resetDatabase(connection);
      // What the instance keeps of the database is read again from the empty one: the maintenance
      // snapshot taken when the app started would otherwise still hold the windows a previous
      // test file left, in force for this file's calls.
      await app.get(MaintenanceService).refresh();
      await app.get(WiderEvidenceService).flush();
      app.get(HealthStore).forgetTenant();
    },
    close: () => app.close(),
  };
}

type Agent = ReturnType<typeof request>;
type SupertestTest = ReturnType<Agent['get']>;

/**
 * Issue 36 (P242): every answer a test receives through `t.http` is checked against the served
 * OpenAPI document (test/support/openapi-answers.ts) after the test's own expectations: an
 * undocumented status, a declared header outside its schema or a body outside its schema fails
 * the test that received it, with the reasons. Requests that reach no documented operation
 * (GraphQL, MCP, the console, the docs, an unknown path) are not checked.
 */
function checkedAgainstDocument(agent: Agent): Agent {
  const answers = servedOpenApiAnswers();
  const checked = { ...agent } as Record<string, unknown>;
  for (const [method, make] of Object.entries(agent) as [string, (url: string) => SupertestTest][]) {
    if (typeof make !== 'function') continue;
    checked[method] = (url: string) => {
      const test = make(url) as SupertestTest & { assert(resError: unknown, res: unknown, fn: unknown): void; method: string; url: string };
      const assert = test.assert.bind(test);
      test.assert = (resError, res, fn) => {
        if (res)
          test.expect((answer: request.Response) => {
            const problems = answers.answerProblems({
              method: test.method,
              url: test.url,
              status: answer.status,
              headers: answer.headers as Record<string, string>,
              body: answer.body,
              text: answer.text,
            });
            if (problems.length) throw new Error(`answer outside the OpenAPI document:\n${problems.join('\n')}`);
          });
        assert(resError, res, fn);
      };
      return test;
    };
  }
  return checked as unknown as Agent;
}

/**
 * Empties every collection but keeps indexes, so each test starts from nothing — and the manifest
 * read's anchor, which the service makes at startup as it builds its indexes (P363). A test of a
 * missing anchor deletes it itself.
 */
export async function resetDatabase(connection: Connection): Promise<void> {
  const collections = await connection.db!.collections();
  const everything = (name: string): Document => (name === READ_ANCHOR_COLLECTION ? { _id: { $ne: READ_ANCHOR_ID } } : {});
  await Promise.all(collections.map((c) => c.deleteMany(everything(c.collectionName))));
}

/**
 * The event relay's own background commands (lease, pending events, outbox inserts) carry this
 * comment (P53), and the webhook worker's look for endpoints to serve theirs (P183): a test
 * counting the commands of one request leaves them out.
 */
export function isBackgroundCommand(event: { command: { comment?: unknown } }): boolean {
  return event.command.comment === 'event-relay' || event.command.comment === 'webhook-delivery';
}

export { KEYS };
