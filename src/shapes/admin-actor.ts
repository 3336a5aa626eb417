import { Principal } from '../auth/principal';

/** Who an admin act is recorded as, in history and pins: "admin:<key name>". */
export function adminActor(principal: Principal): string {
  return `admin:${principal.name}`;
}

/** GraphQL sends null for an unset optional field; the services' DTOs expect it absent. */
export type NullsAbsent<T> = { [K in keyof T]: null extends T[K] ? Exclude<T[K], null> | undefined : T[K] };

export function nullsAbsent<T extends object>(input: T): NullsAbsent<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) out[key] = value === null ? undefined : value;
  return out as NullsAbsent<T>;
}
