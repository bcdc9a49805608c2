import { trace } from '@opentelemetry/api';

import { startTracing } from '../../platform/tracing';

/** Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (on: test/integration/tracing.test.ts). */
describe('tracing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it.each(['api', 'worker'] as const)(
    'when the %s starts, then nothing records spans, no Temporal interceptor is added and workflow spans are dropped',
    async (service) => {
      const tracing = startTracing(service, { OTEL_EXPORTER_OTLP_ENDPOINT: '' });
      expect(trace.getTracer('any').startSpan('any').isRecording()).toBe(false);
      expect(tracing.clientInterceptors).toEqual({});
      expect(tracing.worker.interceptors).toBeUndefined();
      expect(() => tracing.worker.sinks!.exporter!.export!.fn({} as never, [])).not.toThrow();
      await expect(tracing.shutdown()).resolves.toBeUndefined();
    },
  );
});
