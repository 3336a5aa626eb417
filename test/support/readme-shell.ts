/**
 * The README's shell examples, replayed as written (P143): the few shell constructs they use,
 * evaluated the way bash and GNU date would, so the test sends what a reader's shell sends.
 */

/** The ```bash blocks of a Markdown text, in order. */
export function bashBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** `date -u -d '+N hours' +FORMAT` (GNU date) at `now`: %Y %m %d %H %M %S, the rest literal. */
export function gnuDate(offset: string, format: string, now: Date): string {
  const m = /^\+(\d+) (minute|hour|day)s?$/.exec(offset);
  if (!m) throw new Error(`unsupported date offset ${offset}`);
  const unit = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[m[2] as 'minute' | 'hour' | 'day'];
  const d = new Date(now.getTime() + Number(m[1]) * unit);
  const two = (n: number) => String(n).padStart(2, '0');
  const parts: Record<string, string> = {
    Y: String(d.getUTCFullYear()),
    m: two(d.getUTCMonth() + 1),
    d: two(d.getUTCDate()),
    H: two(d.getUTCHours()),
    M: two(d.getUTCMinutes()),
    S: two(d.getUTCSeconds()),
  };
  return format.replace(/%([YmdHMS])/g, (_, c: string) => parts[c]);
}

/** Replaces each `$(date -u -d '…' +FORMAT)` in `text` by its value at `now`. */
export function expandDates(text: string, now: Date): string {
  return text.replace(/\$\(date -u -d '([^']+)' \+([^)\s]+)\)/g, (_, offset: string, format: string) => gnuDate(offset, format, now));
}

/** The shell variables a block assigns (`NAME=value`, separated by `;` or lines), after expandDates. */
export function assignments(block: string, now: Date): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const m of expandDates(block, now).matchAll(/(?:^|;\s*)([A-Z_]+)=([^;\s]+)/gm)) vars[m[1]] = m[2];
  return vars;
}

/**
 * The body of the block's `curl … -d '…'` as bash passes it: single-quoted text, with
 * `'"$NAME"'` / `'"${NAME%%:*}"'` / `'"${NAME##*:}"'` spliced in from `vars`, and `$(date …)` expanded.
 */
export function curlBody(block: string, vars: Record<string, string>, now: Date): unknown {
  const joined = expandDates(block.replace(/\\\n\s*/g, ' '), now);
  const m = /-d '((?:[^']|'"[^"]*"')*)'/.exec(joined);
  if (!m) throw new Error('no curl -d body in the block');
  const body = m[1].replace(/'"\$\{?([A-Za-z_]+)(%%:\*|##\*:)?\}?"'/g, (_, name: string, op: string | undefined) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`the README example uses $${name}, which it never sets`);
    return op === '%%:*' ? value.split(':')[0] : op === '##*:' ? value.split(':').slice(-1)[0] : value;
  });
  return JSON.parse(body);
}

/** The words of the block's `for NAME in a b c; do` loop. */
export function loopWords(block: string): { name: string; words: string[] } {
  const m = /for ([a-z_]+) in ([^;]+); do/.exec(block);
  if (!m) throw new Error('no for loop in the block');
  return { name: m[1], words: m[2].trim().split(/\s+/) };
}
