import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;

/** What each path parameter that may hold a `/` says about sending one (P243). */
export const PATH_SLASH_SENTENCE =
  'A `/` in it is sent percent-encoded as `%2F` (`a/b` as `a%2Fb`); sent raw, it is a 400 naming this parameter.';

/**
 * P243: a path parameter whose pattern allows `/` (every id does) says how one is sent, and that
 * a raw one is refused with the operation's 400 (src/edge/slash-in-path-param.ts), so a caller and
 * a generated client read the rule where they read the parameter. Mutates and returns the document.
 */
export function documentPathSlashes(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values((document.paths ?? {}) as Record<string, Node>))
    for (const operation of Object.values(item)) {
      for (const parameter of ((operation as Node | undefined)?.parameters ?? []) as Node[]) {
        const pattern = (parameter.schema as Node | undefined)?.pattern;
        if (parameter.in !== 'path' || typeof pattern !== 'string' || !new RegExp(pattern).test('a/b')) continue;
        const said = typeof parameter.description === 'string' ? parameter.description.replace(/\.?$/, '.') : '';
        if (!said.includes(PATH_SLASH_SENTENCE)) parameter.description = `${said} ${PATH_SLASH_SENTENCE}`.trim();
      }
    }
  return document;
}
