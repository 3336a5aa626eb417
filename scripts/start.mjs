// Runs the built service (dist/main.js) on the embedded FerretDB unless MONGODB_URI is set, with
// generated development API keys unless API_KEYS is set. Stops the database when the service stops.
import { spawn } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDatabase } from './db/servers.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(ROOT, '.data');
const ROLES = ['admin', 'dispatcher', 'tool-health-writer', 'audit-reader'];

/** One random key per role, kept in .data (git-ignored) so they survive restarts. */
function developmentKeys() {
  const file = join(DATA, 'dev-api-keys.json');
  if (!existsSync(file)) {
    mkdirSync(DATA, { recursive: true });
    const keys = Object.fromEntries(ROLES.map((role) => [role, `dev-${role}-${randomBytes(12).toString('hex')}`]));
    writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  }
  const keys = JSON.parse(readFileSync(file, 'utf8'));
  const env = ROLES.map((role) => `dev-${role}:${role}:${createHash('sha256').update(keys[role]).digest('hex')}`).join(',');
  return { file, keys, env };
}

const env = { ...process.env };
let database = null;

if (!env.API_KEYS) {
  if (env.NODE_ENV === 'production') {
    console.error('API_KEYS is required in production (see README, "Security")');
    process.exit(78);
  }
  const dev = developmentKeys();
  env.API_KEYS = dev.env;
  console.error(`development API keys (from ${dev.file}):`);
  for (const [role, key] of Object.entries(dev.keys)) console.error(`  ${role.padEnd(20)} ${key}`);
}

if (!env.MONGODB_URI) {
  const port = env.FERRETDB_PORT ? Number(env.FERRETDB_PORT) : 27027;
  database = await startDatabase('ferretdb', { dataDir: join(DATA, 'ferretdb'), port });
  env.MONGODB_URI = `${database.uri}/tool_availability`;
  // D3: FerretDB's updates are not atomic, so the embedded database runs single-writer.
  env.DB_SINGLE_WRITER ??= 'true';
  console.error(`embedded FerretDB at ${database.uri} (data in .data/ferretdb)`);
}

const service = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => service.kill(signal));
}
service.on('exit', async (code, signal) => {
  if (database) await database.stop();
  process.exit(code ?? (signal ? 1 : 0));
});
