/** The parser ships no types of its own: what it returns, as its README describes it. */
declare module 'parse-prometheus-text-format' {
  export interface Sample {
    labels?: Record<string, string>;
    /** A counter's, gauge's or untyped sample's value. */
    value?: string;
    /** An unlabelled histogram's (labelled ones are not told apart). */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface MetricFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: Sample[];
  }
  /** Throws on a line that is not Prometheus text. */
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
