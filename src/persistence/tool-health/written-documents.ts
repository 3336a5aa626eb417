import { HealthEvent } from '../../domain/health-events';
import { storedEventsOf, withStoredEvents } from '../../domain/stored-events';
import { ToolHealthDocument } from '../../domain/tool-health-document';

/**
 * What a write reads first of a document it already knows: enough to tell whether the stored
 * document is still the one this instance wrote or read. The version moves with every write of its
 * content (D3, and the bookkeeping flush's updates); the life is new at every creation (P54), so a
 * document deleted and made again never passes for the old one. The pending events are read as
 * they are, because the event relay takes them out without moving the version (P53).
 */
export interface DocumentStamp {
  version: number;
  life?: string;
  pendingEvents?: HealthEvent[];
}

/**
 * The documents this instance last wrote (or read for a write), by id, at most `limit` of them,
 * the least recently used forgotten first (P354). A write whose document is here reads only its
 * stamp, not the whole document: decoding the stored document — twenty history items, its
 * cooldowns — was the largest part of a write's CPU in a bulk system write. The document is
 * kept exactly as written: the guarded write makes the stored one equal to it (P349), and domain
 * documents are never changed in place (reducers return new ones), so keeping it is keeping
 * what the database holds at that version.
 */
export class WrittenDocuments {
  private readonly documents = new Map<string, ToolHealthDocument>();

  constructor(private readonly limit: number) {}

  /** Whether a write to this id may read only the stamp. */
  knows(id: string): boolean {
    return this.documents.has(id);
  }

  /**
   * The stored document, if `stamp` (null: there is no document) says it is still the one kept:
   * the kept one with the stored pending events. Undefined when it is not (another writer moved
   * it, or it was deleted): then it is forgotten, and the caller reads the document whole.
   */
  current(id: string, stamp: DocumentStamp | null): ToolHealthDocument | undefined {
    const kept = this.documents.get(id);
    if (!kept) return undefined;
    const stored = storedEventsOf(kept);
    const life = stored?.life ?? '0';
    if (stamp === null || stamp.version !== kept.version || (stamp.life ?? '0') !== life) {
      this.documents.delete(id);
      return undefined;
    }
    const pendingEvents = stamp.pendingEvents ?? [];
    // Nothing pending as kept, nothing pending as stored (most writes): the kept document is the
    // stored one as it is, and a copy would only cost a spread of every field per write.
    if (stored && stored.pendingEvents.length === 0 && pendingEvents.length === 0) return kept;
    return withStoredEvents(kept, { life, pendingEvents });
  }

  /** The document as the database now holds it (just written, or read whole for a write). */
  remember(doc: ToolHealthDocument): void {
    this.documents.delete(doc.id);
    this.documents.set(doc.id, doc);
    if (this.documents.size > this.limit) this.documents.delete(this.documents.keys().next().value as string);
  }

  /** A write whose outcome is not known here (lost, or applied by an update built elsewhere). */
  forget(id: string): void {
    this.documents.delete(id);
  }
}
