import { spawn } from 'node:child_process';

/**
 * Issue 36 (P246): the README's shell examples, replayed as written. Every ```bash block runs, in
 * order, in ONE bash process (as a reader pastes them into one terminal after `npm start`: the
 * variables a block sets stay set), in a directory laid out like a clone after `npm start` (its
 * `.data/dev-api-keys.json`), with `localhost:3000` pointed at the test's service. A block
 * followed directly by a ```json or ```text block shows its answer there: the test compares the
 * two after masking only what differs from run to run (instants, ids, secrets, clock times, and
 * durations that follow from the shell's clock).
 */
export interface ShellBlock {
  /** 1-based line of the block's opening fence, for messages. */
  line: number;
  code: string;
  answer?: { text: string; start: number; end: number };
}

const FENCE = /```([a-z]*)\n([\s\S]*?)```/g;

export function readmeShellBlocks(markdown: string): ShellBlock[] {
  const fences = [...markdown.matchAll(FENCE)].map((m) => ({
    info: m[1],
    body: m[2],
    start: m.index,
    end: m.index + m[0].length,
    bodyStart: m.index + 3 + m[1].length + 1,
  }));
  const blocks: ShellBlock[] = [];
  fences.forEach((fence, i) => {
    if (fence.info !== 'bash') return;
    const next = fences[i + 1];
    const adjacent = next && /^\s*$/.test(markdown.slice(fence.end, next.start)) && (next.info === 'json' || next.info === 'text');
    blocks.push({
      line: markdown.slice(0, fence.start).split('\n').length,
      code: fence.body,
      answer: adjacent ? { text: next.body, start: next.bodyStart, end: next.bodyStart + next.body.length } : undefined,
    });
  });
  return blocks;
}

/** What differs between two runs of the same examples, masked. */
export function maskRunDetails(text: string): string {
  return (
    text
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z/g, '<instant>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_<secret>')
      .replace(/\b\d\d:\d\d\b/g, '<hh:mm>')
      .replace(/\b\d+ min ago\b/g, '<n> min ago')
      .replace(/"latencyMs":\d+/g, '"latencyMs":<n>')
      // a window that ends at a time computed from the shell's clock (`date -d '+30 minutes'`)
      .replace(/"windowMs":\d+/g, '"windowMs":<n>')
      .trim()
  );
}

export interface Replayed {
  /** Each block's standard output, in order. */
  outputs: string[];
  stderr: string;
  status: number | null;
}

const MARK = '@@readme-block@@';

/**
 * Runs the blocks in one bash process in `cwd`, with `localhost:3000` meaning `127.0.0.1:<port>`.
 * Asynchronous: the service under test answers from this same process.
 */
export function replayShellBlocks(
  blocks: readonly ShellBlock[],
  options: { cwd: string; port: number; timeoutMs: number },
): Promise<Replayed> {
  const script = blocks
    .map((block) => `printf '%s\\n' '${MARK}'\n${block.code.replace(/localhost:3000/g, `127.0.0.1:${options.port}`)}`)
    .join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', script], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: options.cwd, LANG: 'C.UTF-8' },
      timeout: options.timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (status) => resolve({ outputs: stdout.split(`${MARK}\n`).slice(1), stderr, status }));
  });
}

/** The markdown with each answer block replaced by what its command printed (README_UPDATE=1). */
export function withAnswers(markdown: string, blocks: readonly ShellBlock[], outputs: readonly string[]): string {
  let out = markdown;
  // from the end, so earlier offsets stay valid
  for (let i = blocks.length - 1; i >= 0; i--) {
    const answer = blocks[i].answer;
    if (answer) out = `${out.slice(0, answer.start)}${outputs[i].trim()}\n${out.slice(answer.end)}`;
  }
  return out;
}
