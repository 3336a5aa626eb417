import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The repository explains itself: every rule id cited anywhere in a tracked file resolves to a
 * definition inside the repository, and nothing points at documents outside it.
 *
 * What counts as a citation (the definitions are the bold paragraph heads and § headings):
 * - `Dn` or `Dn<letters>` (D3a, D10b, …): an uppercase D, digits, optional lowercase suffix, as a
 *   whole word. Defined by a paragraph `**Dn — Title.**` in docs/decisions.md; only D1–D29 exist.
 * - `Pn` (P7, P29, …): the same shape with P. Defined by `**Pn — Title.**` in docs/decisions.md.
 *   Latency percentiles are written in lowercase (p50, p99) so they never read as a decision.
 * - `§N` or `§N.M`: a section of the spec, defined by a heading `## §N` / `### §N.M` in
 *   docs/spec-summary.md. A § right after `RFC <number> ` is an IETF RFC's section, not the spec's.
 * - `issue N` (any case, also `issues N`): a work item of the tracker, defined by a heading
 *   `## Issue N — Title` in docs/work-items.md.
 * - Outside pointers: the shared spec/design directories beside the checkout, absolute machine
 *   paths, the other platform specs' § numbers, and relative Markdown links to missing files.
 * - Paths in the repository named in prose or comments (`src/…`, `test/…`, `docs/…`, …, from the
 *   top of the checkout): the file or folder exists, or the file with a source extension (an
 *   import-like `src/app.module`). A folder that a command makes (build output, reports) is not
 *   a reference; neither is a pattern (`*`, `<…>`, `{…}`), a path inside another one
 *   (`../src/x`, a URL's `/docs/…`) nor a quoted string in code (a route). A path may also be
 *   relative to the file that names it (the Java sources beside the client's build script).
 * package-lock.json is not read (its integrity hashes are base64, not prose), nor binary files.
 * The patterns below are assembled from parts so that this file does not cite what it forbids.
 */

const ROOT = resolve(__dirname, '..');
const DECISIONS = 'docs/decisions.md';
const SPEC_SUMMARY = 'docs/spec-summary.md';
const WORK_ITEMS = 'docs/work-items.md';
const MAX_D = 29;

export interface Definitions {
  d: Set<string>;
  p: Set<string>;
  sections: Set<string>;
  issues: Set<string>;
}

const SHARED = ['\\.\\.', 'shared'].join('/');
const OUTSIDE_POINTERS: { pattern: RegExp; what: string }[] = [
  { pattern: new RegExp(`(?:${SHARED}|\\bshared/(?:spec|design)\\b)`), what: 'a path outside the repository (shared spec/design)' },
  { pattern: new RegExp(['', 'work', ''].join('/')), what: 'an absolute path of the build machine' },
  { pattern: new RegExp('\\bstack' + '-notes\\b'), what: 'a notes file outside the repository' },
  {
    pattern: new RegExp(
      '\\b(?:agrajag-engine|think-engines|recipes|mcp-tool-routing|identity-credentials|session-lifecycle)(?:\\s*' + '§|\\.md\\b)',
    ),
    what: 'another platform spec or its section (not in this repository)',
  },
];

const D_ID = /\bD(\d+)([a-z]*)\b/g;
const P_ID = /\bP(\d+)([a-z]*)\b/g;
const SECTION = /§\s?(\d+(?:\.\d+)*)/g;
const RFC_BEFORE = /\bRFC\s?\d+\s*$/;
/** A comment's or a list's leader at the start of a line: `//`, ` * `, `#`, `-`. */
const LEADER = /^\s*(?:\/\/+|\/?\*+|#+|-)?\s*$/;
const ISSUE = /\bissues?\s+(\d+)/gi;
const MD_LINK = /\]\(([^)\s]+)\)/g;
/** A path from the top of the checkout, not inside another path or word; `next` catches a pattern. */
const REPO_PATH = /(?<![\w./@'"-])((?:src|test|docs|scripts|console|bench|fuzz)\/[\w.-][\w./-]*[\w/])(?<next>[-.]?[*<{])?/g;
/** What commands make in the checkout (never tracked, so never a stale reference). */
const MADE_BY_COMMANDS = /^(?:fuzz\/(?:dist|report)|bench\/results|console\/(?:assets|dist))(?:\/|$)/;
const SOURCE_EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.js', '.md', '.json'];

/** Whether a path named in a text resolves in the checkout (see REPO_PATH). */
export function resolvesInRepository(path: string, exists: (p: string) => boolean): boolean {
  const bare = path.replace(/\/$/, '');
  return MADE_BY_COMMANDS.test(bare) || SOURCE_EXTENSIONS.some((ext) => exists(bare + ext));
}

export function definitionsFrom(decisions: string, specSummary: string, workItems: string): Definitions {
  const ids = (text: string, re: RegExp) => new Set([...text.matchAll(re)].map((m) => m[1]));
  return {
    d: ids(decisions, /^\*\*(D\d+[a-z]*) — /gm),
    p: ids(decisions, /^\*\*(P\d+[a-z]*) — /gm),
    sections: ids(specSummary, /^#{2,3} §(\d+(?:\.\d+)*)\b/gm),
    issues: ids(workItems, /^## Issue (\d+) — /gm),
  };
}

/** Every problem of one file's text, as `path:line: message`. */
export function problemsIn(
  path: string,
  text: string,
  defs: Definitions,
  exists: (p: string) => boolean = (p) => existsSync(join(ROOT, p)),
): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const at = `${path}:${i + 1}`;
    for (const { pattern, what } of OUTSIDE_POINTERS) {
      if (pattern.test(line)) problems.push(`${at}: ${what}: ${line.trim()}`);
    }
    for (const m of line.matchAll(D_ID)) {
      if (!defs.d.has(m[0])) problems.push(`${at}: ${m[0]} is not a design rule defined in ${DECISIONS}`);
    }
    for (const m of line.matchAll(P_ID)) {
      if (!defs.p.has(m[0])) problems.push(`${at}: ${m[0]} is not a project decision defined in ${DECISIONS}`);
    }
    for (const m of line.matchAll(SECTION)) {
      const head = line.slice(0, m.index);
      // "RFC 8259" may end the previous line of a wrapped comment.
      const before = LEADER.test(head) && i > 0 ? lines[i - 1] : head;
      if (RFC_BEFORE.test(before)) continue;
      if (!defs.sections.has(m[1])) problems.push(`${at}: §${m[1]} has no heading in ${SPEC_SUMMARY}`);
    }
    for (const m of line.matchAll(ISSUE)) {
      if (!defs.issues.has(m[1])) problems.push(`${at}: issue ${m[1]} has no heading in ${WORK_ITEMS}`);
    }
    for (const m of line.matchAll(REPO_PATH)) {
      if (m.groups?.next || m[1].includes('..')) continue;
      const near = (p: string) => exists(p) || exists(join(dirname(path), p));
      if (!resolvesInRepository(m[1], near)) problems.push(`${at}: names a path the repository does not have: ${m[1]}`);
    }
    if (path.endsWith('.md')) {
      for (const m of line.matchAll(MD_LINK)) {
        const target = m[1].split('#')[0];
        if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        if (!existsSync(join(ROOT, dirname(path), target))) problems.push(`${at}: link to a missing file: ${m[1]}`);
      }
    }
  });
  return problems;
}

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\0').filter((f) => f && f !== 'package-lock.json');
}

describe('self-contained docs: every cited rule id resolves in the repository', () => {
  const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
  const defs = definitionsFrom(read(DECISIONS), read(SPEC_SUMMARY), read(WORK_ITEMS));

  it('defines the design rules D1–D29 (and only those, plus lettered sub-rules) and the spec sections', () => {
    const numbers = [...defs.d].map((id) => Number(/\d+/.exec(id)![0]));
    expect(new Set(numbers)).toEqual(new Set(Array.from({ length: MAX_D }, (_, i) => i + 1)));
    expect([...defs.d].filter((id) => /[a-z]$/.test(id)).sort()).toEqual(['D10b', 'D15b', 'D3a', 'D3b', 'D4b']);
    for (let n = 1; n <= 11; n++) expect(defs.sections).toContain(String(n));
    expect(defs.p).toContain('P1');
    expect(defs.issues).toContain('14');
  });

  it('no tracked file points outside the repository or cites an undefined D, P, § or issue', () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const problems = files
      .filter((f) => existsSync(join(ROOT, f)))
      .flatMap((f) => {
        const text = read(f);
        return text.includes('\0') ? [] : problemsIn(f, text, defs);
      });
    expect(problems).toEqual([]);
  });

  describe('which paths are references', () => {
    // Paths assembled from parts, so that this file itself names only paths that exist.
    const path = (...parts: string[]) => parts.join('/');
    const tree = new Set([path('src', 'domain', 'cascade.ts'), path('src', 'features'), path('tools', 'client', 'src', 'Main.java')]);
    const none = { d: new Set<string>(), p: new Set<string>(), sections: new Set<string>(), issues: new Set<string>() };
    const check = (text: string, file = 'x.ts') => problemsIn(file, text, none, (p) => tree.has(p));

    it('accepts existing files and folders, import-like paths without extension, and paths relative to the file', () => {
      const cascade = path('src', 'domain', 'cascade');
      expect(check(`// ${cascade}.ts, \`${path('src', 'features')}/\`, ${cascade} (the cascade)`)).toEqual([]);
      expect(check(`// compiles ${path('src', 'Main.java')}`, path('tools', 'client', 'build.mjs'))).toEqual([]);
    });

    it('flags a path that is gone, a folder renamed', () => {
      const gone = path('src', 'wider-evidence');
      const renamed = path('src', 'domain', 'cascade.tsx');
      expect(check(`// see ${gone} and ${renamed}.`)).toEqual([
        `x.ts:1: names a path the repository does not have: ${gone}`,
        `x.ts:1: names a path the repository does not have: ${renamed}`,
      ]);
    });

    it('leaves patterns, generated folders, routes, units and paths inside other paths alone', () => {
      const t = (...parts: string[]) => path('test', ...parts);
      expect(
        check(`// ${t('persistent', 'history')}-*.e2e-spec.ts, ${path('bench', 'results')}/<time>.json, ${path('src', '{a,b}')}`),
      ).toEqual([]);
      expect(
        check(
          `// ${path('fuzz', 'report', 'x.log')}, ${path('console', 'assets', 'c.js')}; setup('${path('docs', 'x.json')}'); 4 700 ${path('docs', 's')}`,
        ),
      ).toEqual([]);
      expect(check(`import { x } from '../../${t('factories', 'gone')}'; // GET /${path('docs', 'gone.json')}`)).toEqual([]);
    });
  });

  describe('what counts as a citation', () => {
    // Ids assembled from parts, so that this file itself cites only defined ids.
    const d = (s: string) => 'D' + s;
    const p = (s: string) => 'P' + s;
    const fixture: Definitions = { d: new Set(['D3', 'D3a']), p: new Set(['P7']), sections: new Set(['4', '3.1']), issues: new Set(['6']) };
    const check = (text: string) => problemsIn('x.ts', text, fixture);

    it('accepts defined ids, suffixed ones included', () => {
      expect(check(`// ${d('3')}, ${d('3a')} and ${p('7')} (§4, §3.1; see §4.)`)).toEqual([]);
    });

    it('flags undefined numbers and undefined suffixes', () => {
      expect(check(`// ${d('20')}`)).toEqual([`x.ts:1: ${d('20')} is not a design rule defined in ${DECISIONS}`]);
      expect(check(`// ${d('3b')} ${d('3ab')}`)).toHaveLength(2);
      expect(check(`// ${p('8')}`)).toHaveLength(1);
      expect(check('// §5 and §3.2')).toHaveLength(2);
      const unknownIssue = 'issue' + ' 99';
      expect(check(`// Issue 6, item 3; ${unknownIssue}`)).toEqual([`x.ts:1: ${unknownIssue} has no heading in ${WORK_ITEMS}`]);
    });

    it('does not read percentiles, identifiers or RFC sections as citations', () => {
      expect(check('// p99 latency, HTTP/2, fooD3, RFC 9110 §7.8, RFC 6455 §4.1')).toEqual([]);
      const rfcSection = '§' + '8.1';
      expect(check(` * UTF-8 only (RFC 8259\n * ${rfcSection}: …), as §4 says`)).toEqual([]);
      expect(check(` * not an RFC\n * ${rfcSection}`)).toHaveLength(1);
    });

    it('flags pointers outside the repository', () => {
      expect(check(`// see ${['..', 'shared', 'design', 'x.md'].join('/')}`)).toHaveLength(1);
      expect(check(`// see ${'session-' + 'lifecycle'} §4`)).toHaveLength(1);
      expect(check(`// see ${'agrajag-' + 'engine'}.md`)).toHaveLength(1);
      expect(check('// the Agrajag engine, recipes and sessions')).toEqual([]);
    });
  });
});
