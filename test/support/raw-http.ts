import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  /** The reason phrase of the status line. */
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/**
 * One HTTP request with exactly these headers and bytes (fetch and supertest fix Host themselves
 * and re-encode strings, so neither can send a forged Host or invalid UTF-8).
 */
export function rawRequest(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
