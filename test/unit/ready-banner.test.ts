import { readFileSync } from 'node:fs';
import path from 'node:path';

import { readyBanner } from '../../stack/banner';
import { loadStackConfig } from '../../stack/config';
import type { StackUrls } from '../../stack/components';

const projectRoot = path.resolve(__dirname, '../..');

/** The second column of the README's table of what `npm start` prints once it is ready. */
function readmeRows(): { what: string; where: string }[] {
  const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  const table = readme
    .slice(readme.indexOf('Once it is ready, `npm start` prints where everything is'))
    .split('\n\n')[1]!;
  return table
    .split('\n')
    .slice(2)
    .map((row) => row.split(' | '))
    .map(([what, where]) => ({ what: what!.replace(/^\| /, ''), where: where!.replace(/ \|$/, '') }));
}

/** Each address, path or command a README cell names: URLs, host:port, and what stands in backticks. */
const itemsOf = (cell: string) =>
  (cell.match(/https?:\/\/[^\s,()`]+|127\.0\.0\.1:\d+|`[^`]+`/g) ?? []).map((item) => item.replace(/`/g, ''));

/** The URLs the embedded stack reports on its default ports (stack/embedded-stack.ts builds them the same way). */
function defaultUrls(): StackUrls {
  return {
    api: 'http://127.0.0.1:3000',
    mongodb: 'mongodb://127.0.0.1:27017/einvoice',
    temporal: '127.0.0.1:7233',
    temporalUi: 'http://127.0.0.1:8233',
    smtp: 'smtp://127.0.0.1:1025',
    inbox: 'http://127.0.0.1:1080',
    validator: 'http://127.0.0.1:8081',
    accessPoint: 'http://127.0.0.1:8089',
    accessPointAs4: 'http://127.0.0.1:8091/as4',
    peppol: {
      dnsServer: '127.0.0.1:8053',
      zone: 'sml.peppol.localhost',
      sml: 'https://127.0.0.1:8087',
      smp: 'http://127.0.0.1:8088',
      receivingAccessPoint: 'http://127.0.0.1:8090',
      oxalis: 'http://127.0.0.1:8092/as4',
      ca: '/x/ca.pem',
    },
    metrics: {
      api: 'http://127.0.0.1:9464/metrics',
      worker: 'http://127.0.0.1:9465/metrics',
      temporalWorker: 'http://127.0.0.1:9466/metrics',
    },
  };
}

describe('the ready banner of npm start', () => {
  const banner = readyBanner(defaultUrls(), loadStackConfig({}), projectRoot);

  it('says the service is ready', () => {
    expect(banner).toContain('E-invoice delivery service is ready:');
  });

  it("when the README's table lists where something is, then the banner prints it too", () => {
    const rows = readmeRows();
    expect(rows.map((row) => row.what)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Operator CLI/),
        expect.stringMatching(/^Metrics/),
        expect.stringMatching(/Oxalis/),
      ]),
    );
    for (const { what, where } of rows) {
      const items = itemsOf(where);
      expect({ what, items: items.length }).not.toEqual({ what, items: 0 });
      for (const item of items)
        expect({ what, item, printed: banner.includes(item.replace(/\/$/, '')) }).toEqual({
          what,
          item,
          printed: true,
        });
    }
  });

  it('the default URLs here are the stack defaults the README names', () => {
    const config = loadStackConfig({});
    expect([
      config.PORT,
      config.TEMPORAL_UI_PORT,
      config.MAIL_UI_PORT,
      config.VALIDATOR_PORT,
      config.OXALIS_PORT,
      config.ACCESS_POINT_PORT,
      config.METRICS_PORT,
      config.WORKER_METRICS_PORT,
      config.TEMPORAL_METRICS_PORT,
    ]).toEqual([3000, 8233, 1080, 8081, 8092, 8089, 9464, 9465, 9466]);
  });
});
