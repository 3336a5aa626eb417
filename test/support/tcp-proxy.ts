import net from 'node:net';

const HOST = '127.0.0.1';

/** One proxied connection: what is held back while the network is a black hole. */
interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Bytes from the service not yet forwarded, and replies from the database not yet delivered. */
  heldUp: Buffer[];
  heldDown: Buffer[];
}

/**
 * A TCP proxy on 127.0.0.1 between the service and its database, which a test can cut off and
 * restore on the same port: `cut()` destroys every open connection (both sides) and stops
 * listening, so the driver sees its sockets die and new connections refused, as when the
 * database host goes away; `restore()` listens again on the same port.
 *
 * `blackHole()` stops forwarding without closing anything: connections stay open, new ones are
 * accepted, and nothing arrives either way, as when packets are dropped on the path; `heal()`
 * delivers what was held back, in order (TCP's retransmission after the path comes back), and
 * forwards again. `dropReplies()` forwards the service's bytes but discards every reply until
 * `heal()`: the database applies a command whose answer never comes back.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly pairs = new Set<Pair>();
  private mode: 'forward' | 'blackHole' | 'dropReplies' = 'forward';
  /** Reply bytes discarded by dropReplies since start. */
  droppedBytes = 0;
  private _port = 0;
  /** Connections accepted since start (the driver's pool and monitors). */
  accepted = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on `port` (default: a free one) and forwards to `target`. */
  static async start(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port);
    await proxy.listen(port);
    return proxy;
  }

  get port(): number {
    return this._port;
  }

  get listening(): boolean {
    return this.server !== null;
  }

  /** `uri` (a mongodb:// URI) with its host and port replaced by the proxy's. */
  rewrite(uri: string): string {
    const url = new URL(uri);
    url.host = `${HOST}:${this._port}`;
    return url.toString();
  }

  /** Closes every connection and stops listening; resolves once the port is released. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Nothing passes either way, nothing is closed (see the class comment). */
  blackHole(): void {
    this.mode = 'blackHole';
  }

  /** Requests pass, replies are discarded. */
  dropReplies(): void {
    this.mode = 'dropReplies';
  }

  /** Forwards again, first delivering what a black hole held back. */
  heal(): void {
    this.mode = 'forward';
    for (const pair of this.pairs) this.release(pair);
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    if (this.server) return;
    await this.listen(this._port);
  }

  stop(): Promise<void> {
    return this.cut();
  }

  private listen(port: number): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    return new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: HOST, port }, () => {
        server.off('error', reject);
        this.server = server;
        this._port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  private accept(client: net.Socket): void {
    this.accepted++;
    const upstream = net.connect({ host: this.targetHost, port: this.targetPort });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.once('close', () => this.sockets.delete(socket));
    }
    // Either side failing or closing ends the pair: the other side sees its connection die.
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', end);
    upstream.once('error', end);
    client.once('close', end);
    upstream.once('close', end);
    const pair: Pair = { client, upstream, heldUp: [], heldDown: [] };
    this.pairs.add(pair);
    client.once('close', () => this.pairs.delete(pair));
    client.on('data', (chunk: Buffer) => {
      if (this.mode === 'blackHole') pair.heldUp.push(chunk);
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (this.mode === 'blackHole') pair.heldDown.push(chunk);
      else if (this.mode === 'dropReplies') this.droppedBytes += chunk.length;
      else client.write(chunk);
    });
  }

  private release(pair: Pair): void {
    for (const chunk of pair.heldUp.splice(0)) pair.upstream.write(chunk);
    for (const chunk of pair.heldDown.splice(0)) pair.client.write(chunk);
  }
}
