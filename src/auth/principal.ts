import { Role } from '../domain/role';

/** Who is calling: the configured key's name (logged as "who") and its roles. */
export interface Principal {
  name: string;
  roles: readonly Role[];
}

export function holdsRole(principal: Principal, role: Role): boolean {
  return principal.roles.includes(Role.ADMIN) || principal.roles.includes(role);
}

/** The actor recorded in history for writes made by a person or system with an API key. */
export function actorOf(principal: Principal): string {
  return `key:${principal.name}`;
}
