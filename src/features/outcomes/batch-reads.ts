import { ToolHealthDocument } from '../../domain/tool-health-document';

/**
 * The cascade documents of a whole batch, read in ONE `$in` before its first item and kept
 * current with the batch's own writes, so each item reads what the items before it left — as
 * the same reports sent one by one, in order, would have read — without a round trip of its own (D22).
 */
export class BatchReads {
  constructor(private readonly documents: Map<string, ToolHealthDocument>) {}

  /** The stored documents among `ids`, as a map of its own (a report adds to the map it gets). */
  cascade(ids: readonly string[]): Map<string, ToolHealthDocument> {
    const found = new Map<string, ToolHealthDocument>();
    for (const id of ids) {
      const doc = this.documents.get(id);
      if (doc) found.set(id, doc);
    }
    return found;
  }

  /** A document an item of the batch wrote: the next items read it as written. */
  wrote(doc: ToolHealthDocument): void {
    this.documents.set(doc.id, doc);
  }
}
