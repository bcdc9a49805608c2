import http from 'node:http';
import { parseArgs } from 'node:util';

/**
 * The production shape's front: what deploy/nginx.conf does for compose's public API port, on this machine.
 * Every request goes to the API processes behind it with the client's Host kept (LIVE_HOSTS tells the live
 * environment by it) and X-Forwarded-For replaced by the address the front saw, so a client cannot choose
 * the address its per-address limits count against (the API trusts loopback, TRUSTED_PROXIES). Nothing is
 * sent twice: a request whose upstream connection fails is answered 502, never retried here.
 */

const { values } = parseArgs({ options: { port: { type: 'string' }, upstream: { type: 'string' } } });
const port = Number(values.port);
const upstreamPort = Number(values.upstream);
if (!Number.isInteger(port) || !Number.isInteger(upstreamPort)) {
  process.stderr.write('usage: front-proxy --port <port> --upstream <API port>\n');
  process.exit(2);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** What the front itself answers when the API cannot: the status nginx gives, as plain text (it is not the API speaking). */
function unavailable(res: http.ServerResponse, reason: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' })
    .end(`502 Bad Gateway: the API did not answer (${reason})\n`);
}

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '', 'x-forwarded-proto': 'http' };
  const upstream = http.request(
    { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.once('error', () => res.destroy());
    },
  );
  upstream.once('error', (err) => unavailable(res, (err as NodeJS.ErrnoException).code ?? err.message));
  req.pipe(upstream);
  req.once('error', () => upstream.destroy());
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
