import mongoose from 'mongoose';

import { isDatabaseUnavailable } from '../../platform/database';

/** What a request meets while the database is away is 503, never 500 (api/http/errors.ts); these are the signs. */
describe('a database away, as the server says it', () => {
  const serverError = (code: number, errmsg: string) => new mongoose.mongo.MongoServerError({ ok: 0, code, errmsg });

  it.each([
    [
      'FerretDB whose PostgreSQL refuses connections (seen when it was killed)',
      1,
      '[msg_find.go:348 handler.handleMaxTimeMSError] [collection.go:109 postgresql.(*collection).Query] failed to connect to `user=ferretdb database=ferretdb`: 127.0.0.1:5432 (127.0.0.1): dial error: dial tcp 127.0.0.1:5432: connect: connection refused',
    ],
    ['FerretDB whose PostgreSQL is starting up', 1, 'FATAL: the database system is starting up (SQLSTATE 57P03)'],
    [
      'FerretDB whose PostgreSQL ended its connection at shutdown',
      1,
      'FATAL: terminating connection due to administrator command (SQLSTATE 57P01)',
    ],
    ['a MongoDB member shutting down', 91, 'The server is in quiesce mode and will shut down'],
    ['a MongoDB primary that stepped down in an election', 10107, 'not primary'],
  ])('%s: unavailable', (_, code, message) => {
    expect(isDatabaseUnavailable(serverError(code, message))).toBe(true);
  });

  it.each([
    ['a duplicate key', 11000, 'E11000 duplicate key error'],
    ['another internal error of FerretDB', 1, 'unexpected value in filter'],
    ['a bad query', 2, 'unknown operator: $foo'],
  ])('%s: a refusal of the request, not an outage', (_, code, message) => {
    expect(isDatabaseUnavailable(serverError(code, message))).toBe(false);
  });
});
