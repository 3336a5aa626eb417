import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LookupFunction, isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AppConfig } from '../../config/app-config';
import { RESPONSE_EXCERPT_BYTES, isDelivered, normalizedHostName, refusedTarget } from '../../domain/webhooks';

/** What one attempt gave: the receiver's status (null when none came), how long it took, why it failed. */
export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

class SendFailure extends Error {}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** How a target's host name becomes addresses: the system resolver (dns.lookup, as any client), swapped in tests. */
export abstract class HostResolver {
  abstract resolve(host: string): Promise<ResolvedAddress[]>;
}

@Injectable()
export class SystemHostResolver extends HostResolver {
  resolve(host: string): Promise<ResolvedAddress[]> {
    return lookup(host, { all: true, verbatim: true });
  }
}

/**
 * One POST to a webhook target (P185). The host name is resolved here, at every attempt, and every
 * address it gives is checked (private and loopback ranges refused unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS); the connection then goes to the address checked — the client's
 * own lookup is replaced by one that answers it — so a second resolution cannot swap in another
 * address (DNS rebinding). Host header and TLS server name stay the URL's. The whole attempt,
 * resolution included, ends within WEBHOOK_TIMEOUT_MS (≤ 10 s); redirects are not followed (a 3xx
 * is a failure); at most RESPONSE_EXCERPT_BYTES of the answer are read.
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly config: AppConfig,
    private readonly resolver: HostResolver,
  ) {}

  async send(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const timeoutMs = this.config.webhookTimeoutMs;
    const elapsed = () => Math.round(performance.now() - started);
    const failed = (error: string, statusCode: number | null = null, responseExcerpt: string | null = null): SendResult => ({
      statusCode,
      latencyMs: elapsed(),
      error,
      responseExcerpt,
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failed('the endpoint URL is not valid');
    }
    // Trailing dots and case are dropped before any check, as at save (P221).
    const host = normalizedHostName(target.hostname.replace(/^\[|\]$/g, ''));
    let address: ResolvedAddress;
    try {
      const addresses =
        isIP(host) !== 0
          ? [{ address: host, family: isIP(host) }]
          : await withTimeout(this.resolver.resolve(host), timeoutMs, 'name resolution');
      const refused = refusedTarget(
        addresses.map((a) => a.address),
        this.config.webhookAllowPrivateTargets,
      );
      if (refused) return failed(`refused: ${refused}`);
      address = addresses[0];
    } catch (error) {
      return failed(
        error instanceof SendFailure
          ? error.message
          : `the host name did not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }

    const remaining = Math.max(1, timeoutMs - elapsed());
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [address]);
      else callback(null, address.address, address.family);
    };
    const payload = Buffer.from(body, 'utf8');
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let req: ClientRequest | undefined = undefined;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        req?.destroy();
        resolve(result);
      };
      const timer = setTimeout(() => finish(failed(`no answer within ${timeoutMs} ms`)), remaining);
      const onAbort = () => finish(failed('the service is shutting down'));
      signal?.addEventListener('abort', onAbort);
      const options = {
        method: 'POST',
        host,
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        lookup: pinned,
        agent: false as const,
        servername: isIP(host) === 0 ? host : undefined,
        headers: {
          ...headers,
          host: target.host,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'tool-availability-service-webhooks/1',
        },
      };
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          const status = res.statusCode ?? null;
          if (isDelivered(status)) finish({ statusCode: status, latencyMs: elapsed(), error: null, responseExcerpt: excerpt });
          else if (status !== null && status >= 300 && status < 400)
            finish(
              failed(
                `HTTP ${status}: redirects are not followed${res.headers.location ? ` (to ${String(res.headers.location).slice(0, 200)})` : ''}`,
                status,
                excerpt,
              ),
            );
          else finish(failed(`HTTP ${status}`, status, excerpt));
        };
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) done();
        });
        res.on('end', done);
        res.on('error', done);
      };
      try {
        req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(options, onResponse);
      } catch (error) {
        finish(failed(`the request could not be made (${(error as Error).message})`));
        return;
      }
      req.on('error', (error: NodeJS.ErrnoException) => finish(failed(`no answer: ${error.code ?? error.message}`)));
      req.end(payload);
    });
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new SendFailure(`${what} took longer than ${ms} ms`)), ms)),
  );
  return Promise.race([work, bound]).finally(() => clearTimeout(timer));
}
