import { HealthEvent } from './health-events';
import { ToolHealthDocument } from './tool-health-document';

/**
 * What the write path keeps inside a tool_health document beside the §5 fields (P53, P54): the
 * document's `life` (new at every creation, part of every event id) and the events of its writes
 * not yet relayed to the outbox. They ride along with the document under a symbol key: reducers
 * spread documents (`{ ...current }`) and so carry them untouched, while JSON views (REST,
 * GraphQL) never see them. Only the mapper and the store read or set them.
 */
export const STORED_EVENTS = Symbol('storedEvents');

export interface StoredEvents {
  life: string;
  pendingEvents: HealthEvent[];
}

type WithStored = ToolHealthDocument & { [STORED_EVENTS]?: StoredEvents };

export function storedEventsOf(doc: ToolHealthDocument): StoredEvents | undefined {
  return (doc as WithStored)[STORED_EVENTS];
}

export function withStoredEvents<T extends ToolHealthDocument>(doc: T, stored: StoredEvents): T {
  // A copy, then the key set: V8 builds `{ ...doc, [STORED_EVENTS]: stored }` through the runtime (P361).
  const next = { ...doc };
  (next as WithStored)[STORED_EVENTS] = stored;
  return next;
}
