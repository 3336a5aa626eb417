import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';

/**
 * Mongoose builds indexes in the background after a model is compiled; awaiting them here means
 * the service accepts no request before the unique key index exists (a first insert racing the
 * index build fails on mongo-java-server, and would skip uniqueness anywhere).
 */
@Injectable()
export class IndexBootstrap implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async onModuleInit(): Promise<void> {
    await Promise.all(Object.values(this.connection.models).map((model) => model.init()));
  }
}
