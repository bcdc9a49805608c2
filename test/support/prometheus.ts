import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';

export type { MetricFamily };

/** One scrape of a metrics endpoint, as Prometheus makes it, parsed by a Prometheus text parser (which throws on a line that is not). */
export async function scrape(url: string): Promise<MetricFamily[]> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  if (!/^text\/plain; version=0\.0\.4/.test(response.headers.get('content-type') ?? ''))
    throw new Error(`${url} answered ${response.headers.get('content-type')}`);
  return parsePrometheusTextFormat(await response.text());
}

/** The sum of a counter's or gauge's samples whose labels include `labels` (0 when there is none yet). */
export function valueOf(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((candidate) => candidate.name === name);
  const matching = (family?.metrics ?? []).filter((sample) =>
    Object.entries(labels).every(([label, value]) => sample.labels?.[label] === value),
  );
  return matching.reduce((sum, sample) => sum + Number(sample.value), 0);
}

/** An unlabelled histogram's count (0 when nothing was observed yet). */
export function countOf(families: MetricFamily[], name: string): number {
  return Number(families.find((candidate) => candidate.name === name)?.metrics[0]?.count ?? 0);
}
