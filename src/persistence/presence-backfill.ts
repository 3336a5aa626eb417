import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { AnyBulkWriteOperation } from 'mongodb';
import { Model } from 'mongoose';
import { IndexBootstrap } from '../database/index-bootstrap';
import { scopePrefix } from '../domain/health-key';
import { Scope } from '../domain/scope';
import { ToolHealthRecord } from './tool-health/tool-health.schema';
import { BACKFILLED_MARKER } from './tool-presence/tool-presence';
import { ToolPresenceRecord } from './tool-presence/tool-presence.schema';
import { ensureReadAnchor } from './tool-presence/manifest-read';

const BATCH = 5_000;

/**
 * A database written before presence lists existed (or by a tool that writes tool_health
 * directly) has documents no list names, which the manifest read would not see (P81). Once per
 * database, before the service takes requests, every document's name is added to its scope's
 * list; the marker records that it was done. Idempotent ($addToSet), so instances starting
 * together may both run it.
 */
@Injectable()
export class PresenceBackfill implements OnModuleInit {
  private readonly logger = new Logger(PresenceBackfill.name);

  constructor(
    @InjectModel(ToolHealthRecord.name) private readonly records: Model<ToolHealthRecord>,
    @InjectModel(ToolPresenceRecord.name) private readonly lists: Model<ToolPresenceRecord>,
    private readonly indexes: IndexBootstrap,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.indexes.built;
    // The manifest read starts from its anchor (P363); made here so the first turn does not pay
    // for it. A read that finds it missing (a database emptied by hand) puts it back itself.
    await ensureReadAnchor(this.lists.db.db!);
    const lists = this.lists.collection;
    if (await lists.findOne({ _id: BACKFILLED_MARKER } as object)) return;
    const started = Date.now();
    let count = 0;
    let pending = new Map<string, Set<string>>();
    const flush = async () => {
      const ops: AnyBulkWriteOperation<ToolPresenceRecord>[] = [...pending].map(([prefix, tools]) => ({
        updateOne: { filter: { _id: prefix }, update: { $addToSet: { tools: { $each: [...tools] } } }, upsert: true },
      }));
      pending = new Map();
      if (ops.length)
        await (lists as unknown as { bulkWrite: (o: unknown, p: unknown) => Promise<unknown> }).bulkWrite(ops, { ordered: false });
    };
    const cursor = this.records.collection.find({}, { projection: { scope: 1, scopeId: 1, toolName: 1 }, batchSize: BATCH });
    for await (const doc of cursor) {
      const prefix = scopePrefix(doc.scope as Scope, (doc.scopeId as string | null) ?? null);
      let tools = pending.get(prefix);
      if (!tools) pending.set(prefix, (tools = new Set()));
      tools.add(doc.toolName as string);
      if (++count % BATCH === 0) await flush();
    }
    await flush();
    await lists.updateOne({ _id: BACKFILLED_MARKER } as object, { $set: { tools: [] } }, { upsert: true });
    if (count > 0) this.logger.log(`presence lists backfilled from ${count} documents in ${Date.now() - started} ms`);
  }
}
