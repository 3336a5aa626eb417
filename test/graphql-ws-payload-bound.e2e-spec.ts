import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { testEnv } from './support/test-app';

const MB = 1024 * 1024;
const SOCKETS = 12;
const MESSAGE_BYTES = 90 * MB;

/** kB fields of /proc/<pid>/status, in bytes (VmRSS now, VmHWM the peak so far). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/**
 * One masked text frame header announcing `length` bytes (RFC 6455 §5.2), then that many bytes
 * streamed from one reused chunk until the server closes: the test process never holds 90 MB.
 * Resolves with the close code and how much was written before the close.
 */
function floodConnectionInit(url: string, length: number): Promise<{ code: number; written: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    let written = 0;
    ws.once('error', () => undefined); // the server's 1009 close may race our writes
    ws.once('close', (code) => resolve({ code, written }));
    ws.once('open', () => {
      const raw = (ws as unknown as { _socket: import('node:net').Socket })._socket;
      const header = Buffer.alloc(14);
      header[0] = 0x81; // FIN + text
      header[1] = 0x80 | 127; // masked, 64-bit length
      header.writeBigUInt64BE(BigInt(length), 2);
      randomBytes(4).copy(header, 10);
      raw.write(header);
      const chunk = Buffer.alloc(MB, 0x20);
      const pump = () => {
        while (written < length && !raw.destroyed) {
          written += chunk.length;
          if (!raw.write(chunk)) return void raw.once('drain', pump);
        }
      };
      raw.on('error', () => undefined);
      pump();
    });
    setTimeout(() => reject(new Error('no close within 30 s')), 30_000).unref();
  });
}

/**
 * P149 as a bound, in the real process (src/main.ts): 12 connections each announcing a 90 MB
 * connection_init without a key are closed with 1009 (message too big) on the frame header,
 * and the service's peak resident memory grows by far less than one such message.
 */
describe('graphql-ws reads no big message before the key (P149)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const env = { ...process.env, ...testEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'development' }) };
    child = spawn(process.execPath, [path.join(__dirname, 'support', 'edge-run-main.cjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr!.on('data', (d) => (output += d));
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        output += d;
        const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', () => reject(new Error(`service exited before listening:\n${output}`)));
    });
    url = `ws://127.0.0.1:${port}/graphql`;
  }, 60_000);
  afterAll(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('closes each with 1009 and keeps peak memory growth under 150 MB (12 × 90 MB announced)', async () => {
    const before = memoryOf(child.pid!);
    const results = await Promise.all(Array.from({ length: SOCKETS }, () => floodConnectionInit(url, MESSAGE_BYTES)));
    const after = memoryOf(child.pid!);
    console.log(
      `12 × 90 MB connection_init without a key: rss ${Math.round(before.rss / MB)} → ${Math.round(after.rss / MB)} MB, ` +
        `peak ${Math.round(before.peak / MB)} → ${Math.round(after.peak / MB)} MB; written before close: ` +
        results.map((r) => Math.round(r.written / MB)).join(', ') +
        ' MB',
    );
    expect(results.map((r) => r.code)).toEqual(results.map(() => 1009));
    for (const r of results) expect(r.written).toBeLessThan(MESSAGE_BYTES);
    expect(after.peak - Math.max(before.peak, before.rss)).toBeLessThan(150 * MB);
  }, 120_000);
});
