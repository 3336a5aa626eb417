import {
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { DomainErrorCode } from '../domain/domain-error';
import { isDatabaseUnavailable, toDomainError } from './to-domain-error';

function socketError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('toDomainError: the database going away is a 503, never a 500', () => {
  it.each([
    ['server selection timed out', new MongoServerSelectionError('Server selection timed out after 800 ms', { type: 'Single' } as never)],
    ['a connection dropped', new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed')],
    ['the client not connected (watchdog reconnecting)', new MongoNotConnectedError('Client must be connected before running operations')],
    ['the client closed under an operation', new MongoClientClosedError()],
    ['the topology closed', new MongoTopologyClosedError()],
    ['a raw EPIPE from a write waiting for drain', socketError('This socket has been ended by the other party', 'EPIPE')],
    ['a raw ECONNRESET', socketError('read ECONNRESET', 'ECONNRESET')],
  ])('%s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(toDomainError(error)).toMatchObject({
      code: DomainErrorCode.UNAVAILABLE,
      message: 'the database is unavailable; retry shortly',
    });
  });

  it.each([
    ['a server error (e.g. duplicate key)', new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['null', null],
  ])('%s is not', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(toDomainError(error)).toBeNull();
  });
});
