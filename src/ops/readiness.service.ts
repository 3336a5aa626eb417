import { Injectable } from '@nestjs/common';
import { WriterLease } from '../persistence/writer-lease';
import { DatabaseLiveness } from '../persistence/database-liveness';

export interface Readiness {
  ready: boolean;
  database: 'up' | 'down';
  /** Why not ready when the database is up (the writer lease, P40). */
  reason?: string;
}

/** Ready = the database answers (P41) and this instance may write to it (P40). No I/O. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly liveness: DatabaseLiveness,
    private readonly lease: WriterLease,
  ) {}

  check(): Readiness {
    const database = this.liveness.up ? 'up' : 'down';
    const reason = this.lease.blockedReason();
    if (database === 'down') return { ready: false, database };
    return reason ? { ready: false, database, reason } : { ready: true, database };
  }
}
