import { MongoNetworkError } from 'mongodb';

interface DriverConnection {
  id: number | '<monitor>';
  address: string;
  closed: boolean;
  socket: { destroyed: boolean; writableEnded: boolean };
  writeCommand(command: unknown, options: unknown): Promise<void>;
}

const GUARDED = Symbol.for('tas.mongodbWriteGuard');

/**
 * Works around a mongodb 6.20 (and 6.22) bug that made requests hang for good (docs/decisions.md
 * P21; test/persistent/db-faults.e2e-spec.ts). `Connection#writeCommand` writes to the socket and, when
 * `write()` returns false, waits for 'drain'. On a socket that is already destroyed (the
 * database dropped the connection a moment before), Node returns false and emits neither
 * 'drain' nor 'error', so the operation never settles: the request hangs, a write holds its
 * key's lock forever, and a monitor `hello` stalls the server's monitoring. The guard fails such
 * a write at once with the MongoNetworkError the driver raises for a closed connection (a 503 for
 * the caller; the driver's retry and SDAM handling apply as usual).
 *
 * It patches a driver internal (`mongodb/lib/cmap/connection`; the version is pinned ~6.20):
 * if that module or method is missing, it does nothing, and the fault tests show the hang again.
 * Idempotent.
 */
export function installMongodbWriteGuard(): boolean {
  let Connection: { prototype: DriverConnection } | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an internal module of the driver, resolved at run time on purpose (P21)
    Connection = require('mongodb/lib/cmap/connection').Connection;
  } catch {
    return false;
  }
  const proto = Connection?.prototype as (DriverConnection & { [GUARDED]?: true }) | undefined;
  if (!proto || typeof proto.writeCommand !== 'function') return false;
  if (proto[GUARDED]) return true;
  const writeCommand = proto.writeCommand;
  proto.writeCommand = function guardedWriteCommand(this: DriverConnection, command: unknown, options: unknown): Promise<void> {
    // Checked right before the driver's own write: between here and its socket.write() there are
    // only microtasks (serialising an uncompressed command), so the socket cannot close in between.
    if (this.socket.destroyed || this.socket.writableEnded) {
      return Promise.reject(new MongoNetworkError(`connection ${this.id} to ${this.address} closed`));
    }
    return writeCommand.call(this, command, options);
  };
  Object.defineProperty(proto, GUARDED, { value: true });
  return true;
}
