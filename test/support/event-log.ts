import { EventRelay } from '../../src/write-path/event-relay.service';
import { KEYS, TestApp } from './test-app';

/** An event as `/v1/events` gives it, with the fields the tests read. */
export interface LoggedEvent {
  id: string;
  type: string;
  docId: string;
  toolName: string;
  scope: string;
  scopeId: string | null;
  status: string;
  payload: Record<string, unknown>;
}

/**
 * The event log's first page (up to 500) as `reader` serves it, once the relay of every one of
 * `instances` has moved what was staged or pending. A write or publish waits only a bounded time
 * for its events to reach the log, which a loaded machine can outlast; whichever instance holds
 * the relay's lease does the moving.
 */
export async function settledEventLog(reader: TestApp, instances: readonly TestApp[] = [reader]): Promise<LoggedEvent[]> {
  for (const instance of instances) await instance.app.get(EventRelay).drain();
  return (await reader.http.get('/v1/events?limit=500').set('x-api-key', KEYS.audit).expect(200)).body.events;
}
