import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';

const PING_TIMEOUT_MS = 1000;

/** Ready = the database answers a ping within a second. */
@Injectable()
export class ReadinessService {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  async databaseAnswers(): Promise<boolean> {
    const db = this.connection.db;
    if (!db || this.connection.readyState !== 1) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    try {
      return await Promise.race([db.command({ ping: 1 }).then(() => true, () => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
