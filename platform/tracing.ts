import type { IncomingMessage } from 'node:http';

import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker';

/**
 * Traces (OpenTelemetry), exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set, and off otherwise:
 * then no provider, exporter or instrumentation is made and no Temporal interceptor is added. On, one request
 * is one trace across the processes: the HTTP server span of the API, the workflow start (its context rides in
 * the workflow's headers), the workflow and its activities in the worker (workflows/interceptors.ts), and the
 * HTTP calls they make, which carry the W3C `traceparent` header to our access point (whose Java agent joins
 * the trace, stack/embedded-stack.ts). The exporter reads the OTel variables itself (endpoint, headers, timeout).
 */

/** `service.name` of each process: traces show which one did what. */
const SERVICE_NAMES = { api: 'einvoice-api', worker: 'einvoice-worker' } as const;

/** Probes and metric scrapes, every few seconds: no one follows them as traces. */
const UNTRACED_PATHS = new Set(['/v1/health', '/metrics']);

export interface Tracing {
  /** For each Temporal client: a workflow it starts or signals carries the caller's trace. */
  clientInterceptors: ClientInterceptors;
  /** For the worker: activity spans, and where workflow spans go. */
  worker: Pick<WorkerOptions, 'interceptors' | 'sinks'>;
  /** Sends what is still buffered; at process end. */
  shutdown(): Promise<void>;
}

/**
 * Without tracing, a workflow another process started with a trace still makes spans (its start headers say
 * so); this sink drops them, where an unregistered one would log an error for each.
 */
const droppedWorkflowSpans: InjectedSinks<OpenTelemetrySinks> = { exporter: { export: { fn: () => undefined } } };

const OFF: Tracing = {
  clientInterceptors: {},
  worker: { sinks: droppedWorkflowSpans },
  shutdown: () => Promise.resolve(),
};

/**
 * Starts tracing for the process when OTEL_EXPORTER_OTLP_ENDPOINT is set. Called before the process imports
 * anything else (api/http/tracing.ts, worker/tracing.ts): the HTTP instrumentation patches `node:http` as it loads.
 */
export function startTracing(service: keyof typeof SERVICE_NAMES, env: NodeJS.ProcessEnv = process.env): Tracing {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return OFF;
  const resource = new Resource({ [ATTR_SERVICE_NAME]: SERVICE_NAMES[service] });
  const spans = new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spans] });
  // W3C trace context and baggage, and the AsyncLocalStorage context that follows a request through awaits.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.has(new URL(request.url ?? '/', 'http://path.only').pathname),
        // A call outside any trace (a start-up check) would be a trace of one span.
        requireParentforOutgoingSpans: true,
      }),
      // fetch(): the calls to the validator and to our access point.
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  const clientInterceptor = new OpenTelemetryWorkflowClientInterceptor();
  return {
    clientInterceptors: { workflow: [clientInterceptor] },
    worker: {
      interceptors: {
        activity: [
          (ctx) => ({
            inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
            outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
          }),
        ],
      },
      sinks: { exporter: makeWorkflowExporter(spans, resource) },
    },
    shutdown: () => provider.shutdown(),
  };
}
