import { readFileSync } from 'node:fs';
import path from 'node:path';

import { register } from 'prom-client';

import { createLogger } from '../../platform/logger';
import { observeWork, serveMetrics } from '../../platform/metrics';

/**
 * The Grafana dashboard (deploy/grafana/) is built on the names platform/metrics.ts defines: a metric renamed
 * or dropped there, or misspelt in a panel, fails here rather than as an empty panel in production. The
 * Temporal SDK's own names are checked against its live exposition (test/integration/metrics.test.ts).
 */

interface Panel {
  title: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../deploy/grafana/einvoice-dashboard.json'), 'utf8'),
) as { panels: Panel[] };
const expressions = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
);
const namesIn = (expr: string, prefix: string) =>
  [...expr.matchAll(new RegExp(`\\b${prefix}[a-z0-9_]+`, 'g'))].map((match) => match[0]);

/**
 * The series names a metric family is read by: a histogram's buckets, sum and count. (prom-client's types call
 * `type` a numeric enum; what it holds is the type's name.)
 */
const seriesOf = ({ name, type }: { name: string; type: unknown }) =>
  type === 'histogram' ? ['_bucket', '_sum', '_count'].map((suffix) => `${name}${suffix}`) : [name];

describe('the Grafana dashboard', () => {
  // As a process whose metrics are served has them: Node's own included.
  beforeAll(async () => {
    const logger = createLogger('silent', 'test');
    observeWork(() => Promise.resolve({ inProgress: [], stuck: [], lanes: [] }), logger);
    (await serveMetrics({ port: 0, host: '127.0.0.1', copies: 1 }, logger))!.close();
  });

  it('has panels, every one with a query', () => {
    const panels = dashboard.panels.filter((panel) => panel.targets !== undefined);
    expect(panels.length).toBeGreaterThan(10);
    for (const panel of panels) expect(`${panel.title}: ${panel.targets!.length}`).not.toBe(`${panel.title}: 0`);
  });

  it('uses only the einvoice_ metrics the metrics module defines', async () => {
    const defined = new Set((await register.getMetricsAsJSON()).flatMap((metric) => seriesOf(metric)));
    const unknown = expressions.flatMap(({ panel, expr }) =>
      namesIn(expr, 'einvoice_')
        .filter((name) => !defined.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('shows every metric the metrics module defines of its own (Node’s runtime metrics are there to pick from)', async () => {
    const used = new Set(expressions.flatMap(({ expr }) => namesIn(expr, 'einvoice_')));
    const ours = (await register.getMetricsAsJSON()).filter(
      (metric) => !metric.name.startsWith('einvoice_nodejs_') && !metric.name.startsWith('einvoice_process_'),
    );
    expect(
      ours.filter((metric) => !seriesOf(metric).some((series) => used.has(series))).map((metric) => metric.name),
    ).toEqual([]);
  });
});
