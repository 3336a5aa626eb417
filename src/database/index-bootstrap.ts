import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';

/**
 * Builds every model's indexes before the service accepts a request (a first insert racing the
 * index build fails on mongo-java-server, and would skip uniqueness anywhere), one model after
 * the other: mongo-java-server keeps a database's index list in one shared structure, and
 * concurrent createIndexes on different collections can fail there with "Unknown error"
 * (bwaldvogel/mongo-java-server#195; seen on the embedded H2 server at startup). Mongoose's own
 * automatic build (autoIndex) is off for that reason (persistence.module.ts).
 *
 * Nest runs the onModuleInit hooks of one module's providers concurrently: other startup work
 * of this module that reads or writes collections (PresenceBackfill) waits for `built` first,
 * or its commands race the index builds the same way (a startup crash "Unknown error: null"
 * from a find cursor, seen in the bench and once in CI, P111).
 */
@Injectable()
export class IndexBootstrap implements OnModuleInit {
  private finish!: { resolve: () => void; reject: (e: unknown) => void };
  /** Settles when every index is built (rejects if a build failed). */
  readonly built = new Promise<void>((resolve, reject) => (this.finish = { resolve, reject }));

  constructor(@InjectConnection() private readonly connection: Connection) {
    // The hook rethrows a failure itself; this only keeps a waiter-less rejection quiet.
    this.built.catch(() => undefined);
  }

  async onModuleInit(): Promise<void> {
    try {
      for (const model of Object.values(this.connection.models)) {
        await model.init();
        await model.createIndexes();
      }
      this.finish.resolve();
    } catch (e) {
      this.finish.reject(e);
      throw e;
    }
  }
}
