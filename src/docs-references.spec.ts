import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The repository explains itself: every rule id cited anywhere in a tracked file resolves to a
 * definition inside the repository, and nothing points at documents outside it.
 *
 * What counts as a citation (the definitions are the bold paragraph heads and § headings):
 * - `Dn` or `Dn<letters>` (D3a, D10b, …): an uppercase D, digits, optional lowercase suffix, as a
 *   whole word. Defined by a paragraph `**Dn — Title.**` in docs/decisions.md; only D1–D26 exist.
 * - `Pn` (P7, P29, …): the same shape with P. Defined by `**Pn — Title.**` in docs/decisions.md.
 *   Latency percentiles are written in lowercase (p50, p99) so they never read as a decision.
 * - `§N` or `§N.M`: a section of the spec, defined by a heading `## §N` / `### §N.M` in
 *   docs/spec-summary.md. A § right after `RFC <number> ` is an IETF RFC's section, not the spec's.
 * - `issue N` (any case, also `issues N`): a work item of the tracker, defined by a heading
 *   `## Issue N — Title` in docs/work-items.md.
 * - Outside pointers: the shared spec/design directories beside the checkout, absolute machine
 *   paths, the other platform specs' § numbers, and relative Markdown links to missing files.
 * package-lock.json is not read (its integrity hashes are base64, not prose), nor binary files.
 * The patterns below are assembled from parts so that this file does not cite what it forbids.
 */

const ROOT = resolve(__dirname, '..');
const DECISIONS = 'docs/decisions.md';
const SPEC_SUMMARY = 'docs/spec-summary.md';
const WORK_ITEMS = 'docs/work-items.md';
const MAX_D = 26;
/** Design rules after D26 are defined at the end of docs/decisions.md by the issue that adopts each (D28: issue 36). */
const LATER_D = [27, 28, 29];

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
export function problemsIn(path: string, text: string, defs: Definitions): string[] {
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

  it('defines the design rules D1–D26 (and only those, plus lettered sub-rules) and the spec sections', () => {
    const numbers = [...defs.d].map((id) => Number(/\d+/.exec(id)![0]));
    const base = Array.from({ length: MAX_D }, (_, i) => i + 1);
    expect(new Set(numbers.filter((n) => n <= MAX_D))).toEqual(new Set(base));
    expect(numbers.filter((n) => n > MAX_D && !LATER_D.includes(n))).toEqual([]);
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
