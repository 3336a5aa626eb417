import { InputType } from '@nestjs/graphql';

/** The decorator of each field of a request, given whether it is the change request's (optional, "unchanged when absent"). */
export type RequestFields<S> = { [K in keyof S]-?: (change: boolean) => PropertyDecorator };

/** A create request for settings S: the `Required` fields must be sent, the others may be absent or null. */
export type CreateRequest<S, Required extends keyof S> = Pick<S, Required> & { [K in Exclude<keyof S, Required>]?: S[K] | null };

/** A change request for settings S: every field may be absent or null ("unchanged"). */
export type ChangeRequest<S> = { [K in keyof S]?: S[K] | null };

type Fields = Record<string, (change: boolean) => PropertyDecorator>;

function requestClass(name: string, fields: Fields, change: boolean, base: new () => object = class {}): new () => object {
  // A named class: the name is what a stack trace and the metadata stores show.
  const request = { [name]: class extends base {} }[name];
  for (const [field, decorator] of Object.entries(fields)) decorator(change)(request.prototype, field);
  InputType({ isAbstract: true })(request);
  return request;
}

/**
 * The base class of a create request whose fields are the settings S, each decorated by its entry
 * of `fields` (the table is typed from S, so a setting without its field fails `tsc`), after the fields of
 * `base` if one is given. Extend it
 * with the request's own named class, which the contracts show.
 */
export function createRequestOf<S, Required extends keyof S, B extends object = object>(
  name: string,
  fields: RequestFields<S>,
  base?: new () => B,
): new () => B & CreateRequest<S, Required> {
  return requestClass(name, fields as Fields, false, base) as new () => B & CreateRequest<S, Required>;
}

/** The change request derived from the same table: every field optional, each described as unchanged when absent. */
export function changeRequestOf<S>(name: string, fields: RequestFields<S>): new () => ChangeRequest<S> {
  return requestClass(name, fields as Fields, true) as new () => ChangeRequest<S>;
}
