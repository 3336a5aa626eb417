// Driver (mongodb 6.20) and mongoose errors that mean "the database cannot be reached now":
// each is a 503, never a 500. Matched by `name`, which the driver defines per class.
const DB_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError', // in-flight operations when the client is closed (ConnectionWatchdog)
  'MongoServerClosedError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoPoolClosedError',
  'MongoWaitQueueTimeoutError',
  'MongoOperationTimeoutError',
  'MongooseServerSelectionError',
]);

// Raw socket errors: the driver (6.20) rejects a write that waits for 'drain' with the socket's own
// error, unwrapped (e.g. EPIPE "This socket has been ended by the other party" when the database
// drops the connection mid-write; seen in test/db-faults.e2e-spec.ts). A request handler does no
// network I/O but the database's, so these are the database going away.
const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTCONN',
  'ERR_SOCKET_CLOSED',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
]);

/** The message of the 503 every path answers while the database is away. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'the database is unavailable; retry shortly';

/** True for an error that means the database is unreachable right now (a 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return (typeof name === 'string' && DB_UNAVAILABLE.has(name)) || (typeof code === 'string' && SOCKET_ERROR_CODES.has(code));
}
