import { AppConfig } from '../config/app-config';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { ApiKeyEntry, hashApiKey, parseApiKeys } from '../config/api-keys';
import { ApiKeyService } from './api-key.service';
import { Principal } from './principal';
import { Role } from '../domain/role';

const H1 = hashApiKey('key-one');
const H2 = hashApiKey('key-two');

describe('hashApiKey', () => {
  it('is the lowercase hex SHA-256 of the key', () => {
    expect(hashApiKey('password')).toBe('5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8');
    expect(hashApiKey('a')).not.toBe(hashApiKey('b'));
  });
});

describe('parseApiKeys', () => {
  it.each<[string, string, ApiKeyEntry[]]>([
    ['one entry', `ops:admin:${H1}`, [{ name: 'ops', roles: [Role.ADMIN], sha256: H1 }]],
    [
      'several roles joined with +',
      `dispatch-eu:dispatcher+audit-reader:${H1}`,
      [{ name: 'dispatch-eu', roles: [Role.DISPATCHER, Role.AUDIT_READER], sha256: H1 }],
    ],
    [
      'several entries, blanks and empty parts ignored',
      ` ops:admin:${H1} , ,agrajag:tool-health-writer:${H2},`,
      [
        { name: 'ops', roles: [Role.ADMIN], sha256: H1 },
        { name: 'agrajag', roles: [Role.TOOL_HEALTH_WRITER], sha256: H2 },
      ],
    ],
  ])('accepts %s', (_label, raw, expected) => {
    expect(parseApiKeys(raw)).toEqual(expected);
  });

  it.each<[string, string, RegExp]>([
    ['empty', '', /at least one key/],
    ['only separators', ' , ,', /at least one key/],
    ['unknown role', `ops:root:${H1}`, /unknown role\(s\) root/],
    ['one unknown role among good ones', `ops:dispatcher+superuser:${H1}`, /unknown role\(s\) superuser/],
    ['role in the wrong case', `ops:Admin:${H1}`, /unknown role/],
    ['upper-case hash', `ops:admin:${H1.toUpperCase()}`, /64 lowercase hex/],
    ['short hash', `ops:admin:${H1.slice(1)}`, /64 lowercase hex/],
    ['long hash', `ops:admin:${H1}0`, /64 lowercase hex/],
    ['non-hex hash', `ops:admin:${'g'.repeat(64)}`, /64 lowercase hex/],
    ['plain key instead of a hash', 'ops:admin:key-one', /64 lowercase hex/],
    ['missing hash', 'ops:admin', /not name:role\+role:sha256hex/],
    ['missing role', `ops::${H1}`, /not name:role\+role:sha256hex/],
    ['missing name', `:admin:${H1}`, /not name:role\+role:sha256hex/],
    ['extra part', `ops:admin:${H1}:x`, /not name:role\+role:sha256hex/],
    ['duplicate names', `ops:admin:${H1},ops:dispatcher:${H2}`, /unique/],
  ])('rejects %s', (_label, raw, message) => {
    expect(() => parseApiKeys(raw)).toThrow(message);
  });

  it('does not echo a whole overlong entry', () => {
    const raw = `x${'y'.repeat(100)}`;
    expect(() => parseApiKeys(raw)).toThrow(/^"xy{39}" is not/);
  });
});

describe('ApiKeyService', () => {
  const config = new AppConfig();
  config.apiKeys = parseApiKeys(
    [
      `dispatch:dispatcher:${hashApiKey('k-dispatch')}`,
      `audit:audit-reader:${hashApiKey('k-audit')}`,
      `ops:admin:${hashApiKey('k-admin')}`,
      `agrajag:tool-health-writer+audit-reader:${hashApiKey('k-agrajag')}`,
    ].join(','),
  );
  const service = new ApiKeyService(config);

  function codeOf(fn: () => unknown): DomainErrorCode | 'none' {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return (error as DomainError).code;
    }
    return 'none';
  }

  describe('authenticate', () => {
    it.each<[string, string, Principal]>([
      ['dispatcher key', 'k-dispatch', { name: 'dispatch', roles: [Role.DISPATCHER] }],
      ['admin key', 'k-admin', { name: 'ops', roles: [Role.ADMIN] }],
      ['multi-role key', 'k-agrajag', { name: 'agrajag', roles: [Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER] }],
    ])('knows the %s', (_label, key, principal) => {
      expect(service.authenticate(key)).toEqual(principal);
    });

    it.each<[string, unknown]>([
      ['missing key', undefined],
      ['null', null],
      ['empty key', ''],
      ['header sent twice (array)', ['k-admin', 'k-admin']],
      ['number', 42],
      ['overlong key', 'k'.repeat(513)],
      ['unknown key', 'k-unknown'],
      ['the hash instead of the key', hashApiKey('k-admin')],
      ['key with trailing space', 'k-admin '],
      ['key in another case', 'K-ADMIN'],
    ])('rejects a %s as UNAUTHENTICATED', (_label, key) => {
      expect(codeOf(() => service.authenticate(key))).toBe(DomainErrorCode.UNAUTHENTICATED);
    });

    it.each<[string, unknown, RegExp]>([
      ['missing key', undefined, /an API key is required/],
      ['empty key', '', /an API key is required/],
      ['overlong key (not even hashed)', 'k'.repeat(513), /an API key is required/],
      ['unknown key', 'k-unknown', /unknown API key/],
    ])('says why a %s is rejected', (_label, key, message) => {
      expect(() => service.authenticate(key)).toThrow(message);
    });

    it('accepts a configured key of exactly 512 characters', () => {
      const long = 'k'.repeat(512);
      const cfg = new AppConfig();
      cfg.apiKeys = [{ name: 'long', roles: [Role.DISPATCHER], sha256: hashApiKey(long) }];
      expect(new ApiKeyService(cfg).authenticate(long)).toEqual({ name: 'long', roles: [Role.DISPATCHER] });
    });
  });

  describe('authorize (D17)', () => {
    const principal = (key: string) => service.authenticate(key);
    const { DISPATCHER, TOOL_HEALTH_WRITER, AUDIT_READER, ADMIN } = Role;

    it.each<[string, Role[], DomainErrorCode | 'none']>([
      ['k-dispatch', [DISPATCHER], 'none'],
      ['k-dispatch', [TOOL_HEALTH_WRITER, DISPATCHER], 'none'],
      ['k-dispatch', [AUDIT_READER], DomainErrorCode.FORBIDDEN],
      ['k-dispatch', [TOOL_HEALTH_WRITER, AUDIT_READER], DomainErrorCode.FORBIDDEN],
      ['k-dispatch', [ADMIN], DomainErrorCode.FORBIDDEN],
      ['k-audit', [AUDIT_READER], 'none'],
      ['k-audit', [DISPATCHER], DomainErrorCode.FORBIDDEN],
      ['k-audit', [ADMIN], DomainErrorCode.FORBIDDEN],
      ['k-agrajag', [TOOL_HEALTH_WRITER], 'none'],
      ['k-agrajag', [AUDIT_READER], 'none'],
      ['k-agrajag', [DISPATCHER], DomainErrorCode.FORBIDDEN],
      ['k-admin', [DISPATCHER], 'none'],
      ['k-admin', [TOOL_HEALTH_WRITER], 'none'],
      ['k-admin', [AUDIT_READER], 'none'],
      ['k-admin', [ADMIN], 'none'],
    ])('%s for %j → %s', (key, allowed, expected) => {
      expect(codeOf(() => service.authorize(principal(key), allowed))).toBe(expected);
    });

    it('the FORBIDDEN message names the key and the roles that would do', () => {
      expect(() => service.authorize(principal('k-audit'), [DISPATCHER])).toThrow(/"audit".*dispatcher, admin/);
    });
  });
});
