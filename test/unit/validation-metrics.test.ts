import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { register } from 'prom-client';

import { createLogger } from '../../platform/logger';
import { observeWork, validationDuration } from '../../platform/metrics';
import { officialValidator, validatorLanes, ValidatorUnavailableError } from '../../platform/official-validator';

/**
 * The validator's client times every validation under its lane and outcome, and reads the lanes off the
 * validator's health answer; against a stand-in validator that answers as it is told.
 */

const REPORT = {
  rule_set: 'eu.peppol.bis3:2026.5',
  document_type: 'invoice',
  problem: null,
  valid: true,
  findings: [],
};
const LANES = {
  send: { permits: 2, running: 1, completed: 5, stopped: 0, lost: 0 },
  interactive: { permits: 1, running: 0, completed: 3, stopped: 1, lost: 2 },
};

let server: Server;
let baseUrl: string;
/** What the stand-in answers /validate: its status. */
let status = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith('/health'))
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 'ok', lanes: LANES }));
    else res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(REPORT));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** How many validations the histogram counted under these labels. */
const counted = async (labels: { lane: string; outcome: string }) =>
  (await validationDuration.get()).values.find(
    (sample) =>
      sample.metricName === 'einvoice_validation_duration_seconds_count' &&
      sample.labels.lane === labels.lane &&
      sample.labels.outcome === labels.outcome,
  )?.value ?? 0;

describe('validation metrics', () => {
  it('when a validation answers, then it is counted under its lane and verdict; when the validator fails, under unavailable', async () => {
    const validator = officialValidator(baseUrl);
    await validator.validate('<Invoice/>', { lane: 'interactive' });
    expect(await counted({ lane: 'interactive', outcome: 'valid' })).toBe(1);

    status = 500;
    await expect(validator.validate('<Invoice/>')).rejects.toThrow(ValidatorUnavailableError);
    expect(await counted({ lane: 'send', outcome: 'unavailable' })).toBe(1);
  });

  it('the lanes are read off the health answer, and none when the validator does not answer', async () => {
    expect(await validatorLanes(baseUrl)).toEqual([
      { lane: 'send', permits: 2, running: 1, completed: 5, stopped: 0, lost: 0 },
      { lane: 'interactive', permits: 1, running: 0, completed: 3, stopped: 1, lost: 2 },
    ]);
    expect(await validatorLanes('http://127.0.0.1:9', 500)).toEqual([]);
  });

  it('the lanes\u2019 jobs are counted at the scrape by how they ended: completed, stopped, lost', async () => {
    observeWork(
      async () => ({ inProgress: [], stuck: [], lanes: await validatorLanes(baseUrl) }),
      createLogger('silent', 'test'),
    );
    const jobs = (await register.getSingleMetric('einvoice_validator_lane_jobs_total')!.get()).values;
    const count = (lane: string, outcome: string) =>
      jobs.find((sample) => sample.labels.lane === lane && sample.labels.outcome === outcome)?.value;
    expect([count('send', 'completed'), count('send', 'stopped'), count('send', 'lost')]).toEqual([5, 0, 0]);
    expect([count('interactive', 'completed'), count('interactive', 'stopped'), count('interactive', 'lost')]).toEqual([
      3, 1, 2,
    ]);
  });
});
