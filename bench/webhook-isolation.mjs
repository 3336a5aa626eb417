// `node bench/webhook-isolation.mjs [--hanging 20]` (also `npm run bench -- --only w`): how long a
// healthy webhook endpoint waits for its event while other endpoints' receivers never answer.
// Starts its own database and the built service (private targets allowed: the receivers are on
// 127.0.0.1), registers N endpoints whose receiver hangs and one that answers at once, then marks
// a tool DOWN twice: the first event meets every receiver fresh, the second finds the hanging ones
// still holding their first. Reports the healthy endpoint's delivery time for each (target ≤ 1 s).
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { BENCH_KEYS, call, markToolDown, startOwnService } from './own-service.mjs';

const i = process.argv.indexOf('--hanging');
const HANGING = i > 0 ? Number(process.argv[i + 1]) : 20;

export async function webhookIsolationBench({ hanging = HANGING, log = console.error } = {}) {
  const open = new Set();
  let healthyAt = [];
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/healthy') {
        healthyAt.push(performance.now());
        res.writeHead(200).end('ok');
      } else open.add(res);
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${receiver.address().port}`;
  const { port, stop } = await startOwnService({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  try {
    for (let n = 0; n < hanging; n++) {
      const res = await call(port, 'POST', '/v1/webhook-endpoints', BENCH_KEYS.admin, { url: `${base}/hang-${n}` });
      if (res.status !== 201) throw new Error(`register → ${res.status} ${res.text.slice(0, 200)}`);
    }
    await call(port, 'POST', '/v1/webhook-endpoints', BENCH_KEYS.admin, { url: `${base}/healthy` });
    const deliveryMs = [];
    for (const tool of ['isolation_first', 'isolation_second']) {
      const before = healthyAt.length;
      const sent = performance.now();
      await markToolDown(port, tool);
      while (healthyAt.length === before) {
        if (performance.now() - sent > 60_000) throw new Error('the healthy endpoint got nothing in 60 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      deliveryMs.push(Math.round(healthyAt[before] - sent));
    }
    const result = { hangingEndpoints: hanging, healthyDeliveryMs: deliveryMs };
    log(`  w  healthy endpoint beside ${hanging} hanging: delivered after ${deliveryMs.join(' ms, then ')} ms (target ≤ 1000 ms)`);
    return result;
  } finally {
    for (const res of open) res.destroy();
    receiver.closeAllConnections();
    receiver.close();
    await stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  webhookIsolationBench()
    .then((r) => console.log(JSON.stringify(r)))
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    });
}
