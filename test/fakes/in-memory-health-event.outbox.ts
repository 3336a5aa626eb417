import { EventPage, HealthEventOutbox, PositionedEvent } from '../../src/persistence/health-events/health-event.outbox';
import { copy } from './in-memory-database';

/** HealthEventOutbox in memory: events kept in position order, an id already there skipped (it keeps its first position). */
export class InMemoryHealthEventOutbox extends HealthEventOutbox {
  private readonly events: PositionedEvent[] = [];

  /** Everything in the outbox, oldest position first (a copy). */
  all(): PositionedEvent[] {
    return copy(this.events);
  }

  async insertInOrder(events: readonly PositionedEvent[]): Promise<void> {
    const ids = new Set(this.events.map((e) => e.id));
    for (const event of events) {
      if (ids.has(event.id)) continue;
      ids.add(event.id);
      this.events.push(copy(event));
    }
    this.events.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  }

  async readAfter(after: string | null, limit: number): Promise<EventPage> {
    const events = copy(this.events.filter((e) => after === null || e.position > after).slice(0, limit));
    return { events, endCursor: events.length > 0 ? events[events.length - 1].position : after };
  }

  async readBetween(
    after: string | null,
    before: string | null,
    limit: number,
    backward: boolean,
    docId: string | null = null,
  ): Promise<PositionedEvent[]> {
    const inRange = this.events.filter(
      (e) => (after === null || e.position > after) && (before === null || e.position < before) && (docId === null || e.docId === docId),
    );
    return copy((backward ? inRange.reverse() : inRange).slice(0, limit));
  }

  async findById(id: string): Promise<PositionedEvent | null> {
    const event = this.events.find((e) => e.id === id);
    return event ? copy(event) : null;
  }

  async lastPosition(): Promise<string | null> {
    return this.events.at(-1)?.position ?? null;
  }
}
