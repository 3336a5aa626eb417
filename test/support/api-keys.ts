import { hashApiKey } from '../../src/config/api-keys';
import { Role } from '../../src/domain/role';

/** One key per role, plus the configured API_KEYS value that knows them. */
export const KEYS = {
  admin: 'test-admin-key',
  dispatcher: 'test-dispatcher-key',
  writer: 'test-writer-key',
  audit: 'test-audit-key',
} as const;

const ROLE_OF: Record<keyof typeof KEYS, Role> = {
  admin: Role.ADMIN,
  dispatcher: Role.DISPATCHER,
  writer: Role.TOOL_HEALTH_WRITER,
  audit: Role.AUDIT_READER,
};

export const API_KEYS_ENV = (Object.keys(KEYS) as (keyof typeof KEYS)[])
  .map((name) => `${name}:${ROLE_OF[name]}:${hashApiKey(KEYS[name])}`)
  .join(',');
