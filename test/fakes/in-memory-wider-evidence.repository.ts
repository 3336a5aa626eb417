import { EvidenceKey } from '../../src/domain/wider-evidence';
import { BucketAdditions, StoredBucket, WiderEvidenceRepository } from '../../src/persistence/wider-evidence/wider-evidence.repository';
import { copy } from './in-memory-database';

interface Bucket {
  key: EvidenceKey;
  start: Date;
  expiresAt: Date;
  users: string[];
  projects: string[];
  tenants: string[];
}

function addToSet(set: string[], values: readonly string[]): void {
  for (const value of values) if (!set.includes(value)) set.push(value);
}

/** WiderEvidenceRepository in memory: each bucket upserted (its key and times set on insert only), its sets grown like `$addToSet`. */
export class InMemoryWiderEvidenceRepository extends WiderEvidenceRepository {
  readonly buckets = new Map<string, Bucket>();

  async addToBuckets(additions: readonly BucketAdditions[]): Promise<void> {
    for (const a of additions) {
      let bucket = this.buckets.get(a.id);
      if (!bucket) {
        bucket = { key: copy(a.key), start: new Date(a.start), expiresAt: new Date(a.expiresAt), users: [], projects: [], tenants: [] };
        this.buckets.set(a.id, bucket);
      }
      addToSet(bucket.users, a.users);
      addToSet(bucket.projects, a.projects);
      addToSet(bucket.tenants, a.tenants);
    }
  }

  async findBuckets(ids: readonly string[]): Promise<StoredBucket[]> {
    return ids
      .filter((id) => this.buckets.has(id))
      .map((id) => {
        const b = this.buckets.get(id)!;
        return { id, start: b.start.getTime(), users: [...b.users], projects: [...b.projects], tenants: [...b.tenants] };
      });
  }

  async deleteExpired(before: Date): Promise<number> {
    let deleted = 0;
    for (const [id, b] of this.buckets) {
      if (b.expiresAt.getTime() < before.getTime()) {
        this.buckets.delete(id);
        deleted++;
      }
    }
    return deleted;
  }
}
