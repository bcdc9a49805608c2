/**
 * What of FerretDB's log is kept in `ferretdb.log`. At its `warn` level FerretDB logs every failed response as
 * two entries (the header, then the whole message dumped over many lines), and every client that closes its
 * connection; on a normal start most of that is the service's own expected answers: mongoose creating each
 * collection finds it there already (48 NamespaceExists), the driver ending its sessions on close asks for a
 * command FerretDB does not have (59 CommandNotFound, `endSessions`), and each closed connection is a read of 0
 * bytes. Those are left out; every other entry, and anything that is not FerretDB's JSON, is kept as written.
 */

interface Entry {
  msg?: string;
  name?: string;
  error?: string;
}

const NAMESPACE_EXISTS = 48;
const COMMAND_NOT_FOUND = 59;

function entryOf(line: string): Entry | undefined {
  try {
    const entry = JSON.parse(line) as Entry | null;
    return entry && typeof entry === 'object' ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** A failed response the service expects: a collection that exists already, or the driver's `endSessions`. */
function expectedFailure(message: string): boolean {
  const code = Number(/"code": (\d+)/.exec(message)?.[1]);
  return code === NAMESPACE_EXISTS || (code === COMMAND_NOT_FOUND && message.includes("'endSessions'"));
}

/** A client that closed its connection, as FerretDB notices it (a read of nothing, or a deadline on a closed socket). */
function closedConnection(entry: Entry): boolean {
  return (
    (entry.msg === 'Connection stopped' && (entry.error ?? '').includes('expected 16, read 0')) ||
    (entry.msg ?? '').endsWith('use of closed network connection')
  );
}

/** A filter for one FerretDB process's output lines: each line in, the lines to write out (none, one, or a held header with its message). */
export function ferretdbLogFilter(): (line: string) => string[] {
  // A failed response's header, held by connection until its message says whether it is an expected one.
  const headers = new Map<string, string>();
  return (line) => {
    const entry = entryOf(line);
    if (!entry?.msg) return [line];
    const connection = entry.name ?? '';
    if (entry.msg.startsWith('Response header:')) {
      const earlier = headers.get(connection);
      headers.set(connection, line);
      return earlier ? [earlier] : [];
    }
    if (entry.msg.startsWith('Response message:')) {
      const header = headers.get(connection);
      headers.delete(connection);
      if (expectedFailure(entry.msg)) return [];
      return header ? [header, line] : [line];
    }
    return closedConnection(entry) ? [] : [line];
  };
}
