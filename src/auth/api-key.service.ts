import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { hashApiKey } from '../config/api-keys';
import { Principal, holdsRole } from './principal';
import { Role } from '../domain/role';

@Injectable()
export class ApiKeyService {
  private readonly byHash: Map<string, Principal>;

  constructor(config: AppConfig) {
    this.byHash = new Map(config.apiKeys.map((k) => [k.sha256, { name: k.name, roles: k.roles }]));
  }

  /** Looking up the hash (not the key) keeps the comparison free of key-dependent timing. */
  authenticate(key: unknown): Principal {
    if (typeof key !== 'string' || key.length === 0 || key.length > 512) {
      throw new DomainError(DomainErrorCode.UNAUTHENTICATED, 'an API key is required (header x-api-key)');
    }
    const principal = this.byHash.get(hashApiKey(key));
    if (!principal) throw new DomainError(DomainErrorCode.UNAUTHENTICATED, 'unknown API key (header x-api-key)');
    return principal;
  }

  authorize(principal: Principal, allowed: readonly Role[]): void {
    if (!principal.roles.includes(Role.ADMIN) && !allowed.some((role) => holdsRole(principal, role))) {
      throw new DomainError(
        DomainErrorCode.FORBIDDEN,
        `key "${principal.name}" lacks a role for this operation (needs one of: ${[...new Set([...allowed, Role.ADMIN])].join(', ')})`,
      );
    }
  }
}
