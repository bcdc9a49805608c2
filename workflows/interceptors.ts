import type {
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptorsFactory,
  WorkflowInternalsInterceptor,
} from '@temporalio/workflow';

/**
 * The workflow bundle's interceptors (worker/workflow-bundle.ts): OpenTelemetry's, for a workflow whose start
 * carried a trace, as a client does only where tracing is on (platform/tracing.ts). Every other workflow goes
 * straight through them: no span is made, nothing is handed to the worker's span sink and no await is added,
 * so with tracing off workflows run as if nothing were bundled. The start's headers are in the history, so a
 * replay decides alike; what the OpenTelemetry interceptors do in a traced workflow is kept replay-safe by
 * the SDK's own flags.
 *
 * OpenTelemetry's workflow modules are loaded by the first traced call only. The worker runs every workflow in
 * one reused V8 context with a module cache of its own, so whatever this file imports at its top is evaluated
 * again for each workflow: those modules (about 360) were most of the workflow thread's CPU per document
 * (docs/benchmarks.md, Cost per document).
 */

/** The header a traced start carries: the OpenTelemetry interceptors' TRACE_HEADER, named here so as not to load them. */
export const TRACE_HEADER = '_tracer-data';

type OpenTelemetryWorkflow = typeof import('@temporalio/interceptors-opentelemetry/lib/workflow');

let openTelemetry: OpenTelemetryWorkflow | undefined;
function loadOpenTelemetry(): OpenTelemetryWorkflow {
  // A require where it is needed: webpack bundles the module, and evaluates it on this call only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (openTelemetry ??= require('@temporalio/interceptors-opentelemetry/lib/workflow') as OpenTelemetryWorkflow);
}

type Intercepted = (input: unknown, next: (input: unknown) => unknown) => unknown;
type InterceptorClass = 'OpenTelemetryInboundInterceptor' | 'OpenTelemetryOutboundInterceptor';

/** Each method of the named OpenTelemetry interceptor, run by it while `traced()` and otherwise handed on to `next`. */
function whileTraced(
  methods: readonly string[],
  name: InterceptorClass,
  traced: () => boolean,
): Record<string, Intercepted> {
  let interceptor: Record<string, Intercepted> | undefined;
  return Object.fromEntries(
    methods.map((method): [string, Intercepted] => [
      method,
      (input, next) => {
        if (!traced()) return next(input);
        // Made on first use only: making it sets up the workflow's tracer.
        interceptor ??= new (loadOpenTelemetry()[name])() as unknown as Record<string, Intercepted>;
        return interceptor[method]!(input, next);
      },
    ]),
  );
}

/** The methods the OpenTelemetry interceptors implement (a unit test holds these lists to the classes). */
export const INBOUND_METHODS = ['execute', 'handleSignal', 'handleUpdate', 'validateUpdate', 'handleQuery'] as const;
export const OUTBOUND_METHODS = [
  'scheduleActivity',
  'scheduleLocalActivity',
  'startNexusOperation',
  'startChildWorkflowExecution',
  'continueAsNew',
  'signalWorkflow',
  'getLogAttributes',
  'getMetricTags',
] as const;

export const interceptors: WorkflowInterceptorsFactory = () => {
  let traced = false;
  const inbound = whileTraced(INBOUND_METHODS, 'OpenTelemetryInboundInterceptor', () => traced);
  const execute: WorkflowInboundCallsInterceptor['execute'] = (input, next) => {
    traced = TRACE_HEADER in input.headers;
    return inbound.execute!(input, next as (input: unknown) => unknown) as Promise<unknown>;
  };
  // Its one method ends the tracer's context manager, which only a traced workflow has.
  const internals: WorkflowInternalsInterceptor = {
    dispose: (input, next) => {
      if (openTelemetry) void new openTelemetry.OpenTelemetryInternalsInterceptor().dispose(input, next);
      else next(input);
    },
  };
  return {
    inbound: [{ ...inbound, execute }],
    outbound: [whileTraced(OUTBOUND_METHODS, 'OpenTelemetryOutboundInterceptor', () => traced)],
    internals: [internals],
  };
};
