import { EvidenceKey } from '../../domain/wider-evidence';

export interface BucketAdditions {
  id: string;
  key: EvidenceKey;
  start: Date;
  expiresAt: Date;
  users: readonly string[];
  projects: readonly string[];
  tenants: readonly string[];
}

export interface StoredBucket {
  id: string;
  start: number;
  users: string[];
  projects: string[];
  tenants: string[];
}

/** The port (and DI token) for wider_evidence_buckets (issue 16, P79). */
export abstract class WiderEvidenceRepository {
  /** One bulk write: each bucket upserted, its sets grown with `$addToSet` (duplicates never stored). */
  abstract addToBuckets(additions: readonly BucketAdditions[]): Promise<void>;
  /** Many buckets in one `{_id: {$in}}` read. */
  abstract findBuckets(ids: readonly string[]): Promise<StoredBucket[]>;
  /** Removes buckets whose expiresAt is before `before`; returns how many. */
  abstract deleteExpired(before: Date): Promise<number>;
}
