import net from 'node:net';

/** True when nothing listens on host:port (the stack binds loopback only). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Where a stack's own ports are picked: below Linux's default ephemeral range (32768-60999), from which every
 * outgoing connection takes its local port. A listening port picked from that range (port 0) can be taken by a
 * client connection between the pick and a later start on the same configuration (a restarted stack), and the
 * bind then fails with "address already in use".
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_767;

/**
 * Ports this process has handed out: a stack's fifteen ports are all picked before any is bound, so a port free
 * at each asking could be picked twice (about one stack in a hundred), and the second component to bind it
 * failed with "address already in use".
 */
const handedOut = new Set<number>();

/**
 * A port nothing listens on and not handed out before by this process, picked outside the ephemeral range where it can.
 * @internal
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = PICK_FROM + Math.floor(Math.random() * (PICK_TO - PICK_FROM + 1));
    if (handedOut.has(port) || !(await isPortFree(port, host))) continue;
    handedOut.add(port);
    return port;
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The first of `count` consecutive free ports (the Temporal server's services), picked like freePort.
 * @internal
 */
export async function freePortBlock(count: number, host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const first = PICK_FROM + Math.floor(Math.random() * (PICK_TO - PICK_FROM - count));
    const block = Array.from({ length: count }, (_, index) => first + index);
    if (block.some((port) => handedOut.has(port))) continue;
    if (!(await Promise.all(block.map((port) => isPortFree(port, host)))).every(Boolean)) continue;
    for (const port of block) handedOut.add(port);
    return first;
  }
  throw new Error(`no ${count} consecutive free ports found between ${PICK_FROM} and ${PICK_TO}`);
}

export function canConnect(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
