import { createHash } from 'node:crypto';
import { Role } from '../domain/role';

/** A configured key: only its SHA-256 is stored, so a leaked config does not leak keys. */
export interface ApiKeyEntry {
  name: string;
  roles: Role[];
  sha256: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * `API_KEYS` = comma-separated `name:role+role:sha256hex`, e.g.
 * `ops:admin:5e88…,dispatch-eu:dispatcher:9f86…`. `npm run key:hash -- <key>` prints a hash.
 */
export function parseApiKeys(raw: string): ApiKeyEntry[] {
  const roles = new Set<string>(Object.values(Role));
  const entries = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [name, roleList, sha256, ...rest] = part.split(':');
      if (!name || !roleList || !sha256 || rest.length > 0) {
        throw new Error(`"${part.slice(0, 40)}" is not name:role+role:sha256hex`);
      }
      if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`key "${name}": the hash must be 64 lowercase hex characters`);
      const parsed = roleList.split('+');
      const unknown = parsed.filter((role) => !roles.has(role));
      if (unknown.length > 0) throw new Error(`key "${name}": unknown role(s) ${unknown.join(', ')}`);
      return { name, roles: parsed as Role[], sha256 };
    });
  if (entries.length === 0) throw new Error('at least one key is required');
  const names = new Set(entries.map((e) => e.name));
  if (names.size !== entries.length) throw new Error('key names must be unique');
  // Two entries with one hash would let whoever holds that key pick up the other entry's roles.
  const hashes = new Set(entries.map((e) => e.sha256));
  if (hashes.size !== entries.length) throw new Error('each key must be configured once (duplicate hash)');
  return entries;
}
