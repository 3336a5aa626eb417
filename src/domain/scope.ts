/** Who a health entry affects (§4). Declared narrow → wide: the cascade walks this order. */
export enum Scope {
  SESSION = 'SESSION',
  USER = 'USER',
  PROJECT = 'PROJECT',
  TENANT = 'TENANT',
  GLOBAL = 'GLOBAL',
}

export const CASCADE_ORDER: readonly Scope[] = [Scope.SESSION, Scope.USER, Scope.PROJECT, Scope.TENANT, Scope.GLOBAL];

/** Narrower scopes have a smaller rank. */
export function scopeRank(scope: Scope): number {
  return CASCADE_ORDER.indexOf(scope);
}
