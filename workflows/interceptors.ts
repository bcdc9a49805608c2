import { TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { OpenTelemetryInboundInterceptor, OpenTelemetryInternalsInterceptor, OpenTelemetryOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { WorkflowInboundCallsInterceptor, WorkflowInterceptorsFactory } from '@temporalio/workflow';

/**
 * The workflow bundle's interceptors (worker/workflow-bundle.ts): OpenTelemetry's, for a workflow whose start
 * carried a trace, as a client does only where tracing is on (platform/tracing.ts). Every other workflow goes
 * straight through them: no span is made, nothing is handed to the worker's span sink and no await is added,
 * so with tracing off workflows run as if nothing were bundled. The start's headers are in the history, so a
 * replay decides alike; what the OpenTelemetry interceptors do in a traced workflow is kept replay-safe by
 * the SDK's own flags.
 */

type Intercepted = (input: unknown, next: (input: unknown) => unknown) => unknown;

/** Each method of the `OpenTelemetry` interceptor class, run by it while `traced()` and otherwise handed on to `next`. */
function whileTraced(OpenTelemetry: new () => object, traced: () => boolean): Record<string, Intercepted> {
  let interceptor: Record<string, Intercepted> | undefined;
  const methods = Object.getOwnPropertyNames(OpenTelemetry.prototype).filter((name) => name !== 'constructor');
  return Object.fromEntries(
    methods.map((name): [string, Intercepted] => [
      name,
      (input, next) => {
        if (!traced()) return next(input);
        // Made on first use only: making it sets up the workflow's tracer.
        interceptor ??= new OpenTelemetry() as Record<string, Intercepted>;
        return interceptor[name]!(input, next);
      },
    ]),
  );
}

export const interceptors: WorkflowInterceptorsFactory = () => {
  let traced = false;
  const inbound = whileTraced(OpenTelemetryInboundInterceptor, () => traced);
  const execute: WorkflowInboundCallsInterceptor['execute'] = (input, next) => {
    traced = TRACE_HEADER in input.headers;
    return inbound.execute!(input, next as (input: unknown) => unknown) as Promise<unknown>;
  };
  return {
    inbound: [{ ...inbound, execute }],
    outbound: [whileTraced(OpenTelemetryOutboundInterceptor, () => traced)],
    internals: [new OpenTelemetryInternalsInterceptor()],
  };
};
