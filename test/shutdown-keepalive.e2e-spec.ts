import { Agent, request } from 'node:http';
import { ServiceProcess } from './support/service-process';
import { KEYS } from './support/test-app';

/**
 * A graceful stop resets nothing for callers that honour `Connection: close` (P223): 20
 * keep-alive clients (Node's own Agent, which drops a connection whose answer said close) send
 * lookups back to back while the service gets SIGTERM, ten times over. Every request either gets
 * an answer or finds the port closed (ECONNREFUSED, on a new connection: nothing was sent); none
 * may be reset or hang up on a connection the server had offered for reuse.
 */
jest.setTimeout(240_000);

const CLIENTS = 20;
const ROUNDS = 10;
const MAX_REQUESTS = 2_000; // per client and round: bounds each loop

interface Tally {
  answered: number;
  refused: number;
  resets: string[];
}

function lookup(port: number, agent: Agent): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/tools/shutdown_tool/availability',
        agent,
        headers: { 'x-api-key': KEYS.dispatcher },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve({ error: `${e.code ?? e.message}${req.reusedSocket ? ' on a reused connection' : ' on a new connection'}` }),
    );
    req.end();
  });
}

async function client(port: number, tally: Tally): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < MAX_REQUESTS; i++) {
      const result = await lookup(port, agent);
      if ('status' in result) tally.answered++;
      else if (result.error.startsWith('ECONNREFUSED')) {
        tally.refused++;
        return; // the listener is gone: this client is done
      } else tally.resets.push(result.error);
    }
  } finally {
    agent.destroy();
  }
}

describe('SIGTERM under keep-alive load', () => {
  it(`resets no request across ${ROUNDS} stops of ${CLIENTS} keep-alive clients`, async () => {
    const tally: Tally = { answered: 0, refused: 0, resets: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const service = await ServiceProcess.start({});
      const clients = [...Array(CLIENTS)].map(() => client(service.port, tally));
      await new Promise((r) => setTimeout(r, 300 + round * 37)); // the signal lands at a different moment each round
      await service.stop();
      await Promise.all(clients);
    }
    expect(tally.resets).toEqual([]);
    expect(tally.answered).toBeGreaterThan(ROUNDS * CLIENTS);
    expect(tally.refused).toBe(ROUNDS * CLIENTS);
  });
});
