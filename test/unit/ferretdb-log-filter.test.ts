import { ferretdbLogFilter } from '../../stack/ferretdb/log-filter';

/** Entries as FerretDB 1.24 writes them at its warn level in JSON (a failed response: its header, then its message over many lines). */
const entry = (msg: string, extra: Record<string, string> = {}) =>
  JSON.stringify({
    time: '2026-12-05T06:18:33.43Z',
    level: 'WARN',
    source: { function: 'clientconn.(*conn).logResponse' },
    msg,
    ...extra,
  });
const header = (connection: string) =>
  entry('Response header: length:   135, id:    2, response_to:    3, opcode: OP_MSG', { name: connection });
const failure = (connection: string, errmsg: string, code: number, codeName: string) =>
  entry(
    `Response message:\n{\n  "Sections": [\n    {\n      "Kind": 0,\n      "Document": {\n        "ok": 0.0,\n        "errmsg": "${errmsg}",\n        "code": ${code},\n        "codeName": "${codeName}",\n      },\n    },\n  ],\n}\n`,
    { name: connection },
  );

describe("what of FerretDB's log the stack keeps", () => {
  it('when a start creates collections that exist and the driver ends its sessions, then none of those failed responses is written', () => {
    const filter = ferretdbLogFilter();
    const written = [
      header('// a'),
      header('// b'),
      failure('// a', 'Collection einvoice.accounts already exists.', 48, 'NamespaceExists'),
      failure('// b', "no such command: 'endSessions'", 59, 'CommandNotFound'),
    ].flatMap(filter);
    expect(written).toEqual([]);
  });

  it('when a client closes its connection, then that is not written', () => {
    const filter = ferretdbLogFilter();
    expect(
      filter(
        entry('Connection stopped', {
          conn: '127.0.0.1:59602 -> 127.0.0.1:27511',
          error: '[msg_header.go:68] expected 16, read 0: read tcp: connection reset by peer',
        }),
      ),
    ).toEqual([]);
    expect(filter(entry('Failed to set deadline: set tcp 127.0.0.1:27511: use of closed network connection'))).toEqual(
      [],
    );
  });

  it('when a response fails otherwise, or anything else is logged, then it is written whole, its header first', () => {
    const filter = ferretdbLogFilter();
    const other = failure('// a', 'no such command: dropEverything', 59, 'CommandNotFound');
    const internal = failure('// b', 'failed to connect to PostgreSQL', 1, 'InternalError');
    expect([header('// a'), header('// b'), other, internal].flatMap(filter)).toEqual([
      header('// a'),
      other,
      header('// b'),
      internal,
    ]);
    const stopped = entry('Connection stopped', { error: 'unexpected EOF in the middle of a message' });
    expect(filter(stopped)).toEqual([stopped]);
    expect(filter('panic: runtime error')).toEqual(['panic: runtime error']);
  });
});
