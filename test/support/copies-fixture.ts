import { createServer } from 'node:http';

import { createLogger } from '../../platform/logger';
import { copyIndex, runCopies } from '../../platform/process-copies';
import { exitIfStopStalls } from '../../platform/shutdown';

/**
 * A stand-in entry for test/unit/process-copies.test.ts: COPIES copies of a
 * server on PORT that answers with its pid (GET /place: pid and place among
 * the copies); GET /die ends the copy that takes it, and SIGTERM closes it as the API does. With FAIL_AT_START, every copy
 * fails as it starts; with STOP_HANGS, a stop never finishes, and only its deadline (STOP_HANGS ms) ends the copy.
 */
runCopies(
  Number(process.env.COPIES),
  createLogger('silent', 'copies'),
  async () => {
    if (process.env.FAIL_AT_START) throw new Error('cannot start');
    const server = createServer((req, res) => {
      if (req.url === '/die') process.exit(3);
      res.end(req.url === '/place' ? `${process.pid} ${copyIndex()}` : String(process.pid));
    });
    await new Promise<void>((resolve) => server.listen(Number(process.env.PORT), '127.0.0.1', resolve));
    process.on('SIGTERM', () => {
      if (process.env.STOP_HANGS) exitIfStopStalls(createLogger('silent', 'copies'), Number(process.env.STOP_HANGS));
      else server.close(() => process.exit(0));
    });
  },
  (err) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
