import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DECORATORS } from '@nestjs/swagger';
import { Role } from '../domain/role';
import { PUBLIC_KEY, ROLES_KEY } from '../auth/roles.decorator';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/** Who may call an operation: `public` (no key) or the roles the guard lets through. */
export type OperationAccess = 'public' | readonly Role[];

/**
 * The roles each REST operation needs, read off the very metadata ApiKeyGuard reads (@Roles and
 * @Public on the handler, else on its controller; no @Roles = admin only), keyed by operationId.
 * Admin is always allowed (D17), so it is listed last on every keyed operation.
 */
export function operationAccess(app: INestApplication): Map<string, OperationAccess> {
  const access = new Map<string, OperationAccess>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller?.prototype) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const operation = Reflect.getMetadata(DECORATORS.API_OPERATION, handler) as { operationId?: string } | undefined;
        if (!operation?.operationId) continue;
        const read = <T>(key: string): T | undefined =>
          (Reflect.getMetadata(key, handler) as T | undefined) ?? (Reflect.getMetadata(key, controller) as T | undefined);
        if (read<boolean>(PUBLIC_KEY)) access.set(operation.operationId, 'public');
        else {
          const roles = read<Role[]>(ROLES_KEY) ?? [Role.ADMIN];
          access.set(operation.operationId, [...roles.filter((r) => r !== Role.ADMIN), Role.ADMIN]);
        }
      }
    }
  }
  return access;
}

/** The sentence a reader of the operation sees, e.g. "Needs an API key with the role dispatcher or admin." */
export function accessStatement(access: OperationAccess): string {
  if (access === 'public') return 'Needs no API key.';
  const roles = access.map((r) => `\`${r}\``);
  const list = roles.length === 1 ? roles[0] : `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}`;
  return `Needs an API key (header \`x-api-key\`) with the role ${list}.`;
}

/**
 * Every operation states which role's key it needs — an `x-roles` extension (an empty list
 * for the open routes) and a closing sentence of its description — and the open routes say
 * `security: []` explicitly, so a linter and Swagger UI's padlock both read them as open (P140).
 * Mutates and returns the document.
 */
export function documentOperationRoles(document: OpenAPIObject, access: Map<string, OperationAccess>): OpenAPIObject {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      const found = operation?.operationId ? access.get(operation.operationId) : undefined;
      if (!operation || !found) continue;
      const statement = accessStatement(found);
      if (!operation.description?.includes(statement)) operation.description = `${operation.description ?? ''} ${statement}`.trim();
      (operation as unknown as Record<string, unknown>)['x-roles'] = found === 'public' ? [] : [...found];
      if (found === 'public') operation.security = [];
    }
  }
  return document;
}
