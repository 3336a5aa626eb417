import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { FakeClock } from './fake-clock';

// A webhook receiver for e2e tests (a local HTTP server on 127.0.0.1) and the check every
// delivery gets: the published `standardwebhooks` package verifies it.

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver: records every request; answers what `answer` says (status, or 'hang' to never answer). */
export class Receiver {
  readonly received: Received[] = [];
  answer: number | 'hang' = 200;
  private readonly server: Server;
  private readonly hanging = new Set<() => void>();

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (this.answer === 'hang') {
          this.hanging.add(() => res.destroy());
          return;
        }
        res.writeHead(this.answer, { 'content-type': 'text/plain' }).end(this.answer < 300 ? 'thanks' : 'receiver says no');
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async stop(): Promise<void> {
    for (const end of this.hanging) end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Verifies with the standardwebhooks library. Its timestamp check reads Date.now(); deliveries are
 * stamped by the service's clock (the test's fake one), so the check runs at that clock's time.
 */
export function verify(secret: string, r: Received, clock: FakeClock): Record<string, unknown> {
  const now = jest.spyOn(Date, 'now').mockReturnValue(clock.now().getTime());
  try {
    return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Record<string, unknown>;
  } finally {
    now.mockRestore();
  }
}
