/**
 * Settings a deployment may still carry from an earlier release, and why they no longer do
 * anything. Read at boot so an operator who sets one learns it is ignored, instead of trusting
 * behaviour that is gone (a start does not fail on them: what they asked for is now always so).
 */
const RETIRED: Readonly<Record<string, string>> = {
  DB_SINGLE_WRITER:
    'every write is version-guarded on every server, so any number of instances may write to one database; there is no single-writer mode (P117)',
  WRITER_LEASE_TTL_MS: 'the writer lease is gone with the single-writer mode (P117)',
  WRITER_LEASE_RENEW_MS: 'the writer lease is gone with the single-writer mode (P117)',
};

/** One sentence per retired setting present in `env`, naming it and why it is ignored. */
export function retiredSettingsIn(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(RETIRED)
    .filter(([name]) => env[name] !== undefined)
    .map(([name, why]) => `${name} is set but no longer read: ${why}`);
}
