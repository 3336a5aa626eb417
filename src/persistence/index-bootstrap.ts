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
 */
@Injectable()
export class IndexBootstrap implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    for (const model of Object.values(this.connection.models)) {
      await model.init();
      await model.createIndexes();
    }
  }
}
