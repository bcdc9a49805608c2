/**
 * Server settings both shapes' Temporal servers run with (the dev server takes them as
 * `--dynamic-config-value`, the production server from its dynamic configuration file).
 *
 * Eager activity execution: when a workflow task schedules an activity the same worker can run, the server
 * hands the activity task back in its answer to that workflow task instead of queueing it for a poll. Off by
 * default in the server; the SDK asks for it on every activity (`allowEagerDispatch`). It saves each activity
 * of a document's workflow a trip through the matching service (see docs/benchmarks.md, Cost per document).
 */
const TEMPORAL_DYNAMIC_CONFIG: Readonly<Record<string, boolean | number | string>> = {
  'system.enableActivityEagerExecution': true,
  // Worker Versioning (worker/deployment.ts): workers are versions of a worker deployment, workflows pinned to theirs.
  'system.enableDeploymentVersions': true,
  'frontend.workerVersioningWorkflowAPIs': true,
};

/** The dev server's command-line form: one `--dynamic-config-value KEY=JSON` per setting. */
export function devServerDynamicConfigArgs(): string[] {
  return Object.entries(TEMPORAL_DYNAMIC_CONFIG).flatMap(([key, value]) => [
    '--dynamic-config-value',
    `${key}=${JSON.stringify(value)}`,
  ]);
}

/** The production server's file form: each key a list of constrained values, here one unconstrained. */
export function serverDynamicConfigFile(
  extra: Readonly<Record<string, boolean | number | string>>,
): Record<string, Array<{ value: unknown }>> {
  return Object.fromEntries(
    Object.entries({ ...TEMPORAL_DYNAMIC_CONFIG, ...extra }).map(([key, value]) => [key, [{ value }]]),
  );
}
