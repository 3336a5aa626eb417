import { Injectable } from '@nestjs/common';
import { WriterLease } from '../persistence/writer-lease';
import { DatabaseLiveness } from '../persistence/database-liveness';

export interface Readiness {
  ready: boolean;
  database: 'up' | 'down';
  /** Why not ready when the database is up (the writer lease, P40), in words fit for anyone. */
  reason?: string;
}

/**
 * P139: `/health/ready` is open without a key (D17: saying nothing about hosts or processes), so
 * its reason says only what a load balancer or an operator's dashboard needs: not ready, and
 * whether another instance is the writer. The holder's host name and pid stay in the log and in
 * the 503 answered to requests with a key (RequestDeadlineInterceptor).
 */
export const NOT_WRITER_OTHER_HOLDS =
  'another instance holds the writer lease of this single-writer database; this one takes over when it is released or expires';
export const NOT_WRITER_YET = 'this instance does not hold the writer lease of its single-writer database yet; it keeps trying';

/** Ready = the database answers (P41) and this instance may write to it (P40). No I/O. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly liveness: DatabaseLiveness,
    private readonly lease: WriterLease,
  ) {}

  check(): Readiness {
    const database = this.liveness.up ? 'up' : 'down';
    if (database === 'down') return { ready: false, database };
    if (this.lease.mayWrite) return { ready: true, database };
    const state = this.lease.current;
    return { ready: false, database, reason: state.mode === 'waiting' && state.holder ? NOT_WRITER_OTHER_HOLDS : NOT_WRITER_YET };
  }
}
