import { Injectable } from '@nestjs/common';
import { DatabaseLiveness } from '../database/database-liveness';

export interface Readiness {
  ready: boolean;
  database: 'up' | 'down';
}

/** Ready = the database answers (P41): every instance may write, its writes guarded (P117). No I/O. */
@Injectable()
export class ReadinessService {
  constructor(private readonly liveness: DatabaseLiveness) {}

  check(): Readiness {
    return this.liveness.up ? { ready: true, database: 'up' } : { ready: false, database: 'down' };
  }
}
