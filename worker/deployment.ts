import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import type { Connection } from '@temporalio/client';
import type { WorkerDeploymentOptions } from '@temporalio/worker';

import type { Logger } from '../platform/logger';

/**
 * Worker Versioning: every worker is a version of the deployment `einvoice`, its build id the hash of the
 * workflow bundle it runs. A workflow is pinned to the build that started it unless its definition says
 * otherwise (the long waits, workflows/versioning.ts), so a new build changes workflow code freely and the
 * workflows in flight finish on the old one (docs/operations.md, Deploying with work in flight).
 */
export const WORKER_DEPLOYMENT_NAME = 'einvoice';

/** Equal bundles are one build; any change of workflow code, or of what it imports, is another. */
export async function buildIdOf(bundleFile: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(bundleFile))
    .digest('hex')
    .slice(0, 16);
}

/** A worker's place in its deployment (the tests use deployments of their own beside `einvoice`). */
export interface WorkerVersion {
  deploymentName: string;
  buildId: string;
}

export function deploymentOptions(version: WorkerVersion): WorkerDeploymentOptions {
  return { useWorkerVersioning: true, version, defaultVersioningBehavior: 'PINNED' };
}

/** The deployment's versions, oldest first, and its current one; null until a worker of it has polled. */
type Deployment = { versions: string[]; current?: string };

async function deploymentState(
  connection: Connection,
  namespace: string,
  deploymentName: string,
): Promise<Deployment | null> {
  try {
    const { workerDeploymentInfo: info } = await connection.workflowService.describeWorkerDeployment({
      namespace,
      deploymentName,
    });
    const createdAt = (time?: { seconds?: unknown; nanos?: number | null } | null) =>
      Number(time?.seconds ?? 0) * 1e9 + (time?.nanos ?? 0);
    const versions = [...(info?.versionSummaries ?? [])].sort(
      (a, b) => createdAt(a.createTime) - createdAt(b.createTime),
    );
    return {
      versions: versions.map((version) => version.deploymentVersion?.buildId ?? ''),
      current: info?.routingConfig?.currentDeploymentVersion?.buildId ?? undefined,
    };
  } catch {
    return null;
  }
}

/**
 * Makes this build the current version (new workflows start on it) when it is the newest the server has seen
 * poll: a new build takes over by starting, while a worker of an older build that restarts during a rollout
 * drains its pinned workflows without taking new ones back. Waits until the server knows this build (it learns
 * it from the worker's first poll). A rollback to an older build is the operator's
 * (`temporal worker deployment set-current-version`).
 */
export async function takeOverIfNewest(
  connection: Connection,
  namespace: string,
  { deploymentName, buildId }: WorkerVersion,
  logger: Pick<Logger, 'info' | 'debug'>,
  signal: AbortSignal,
): Promise<'current' | 'newer build runs' | 'stopped'> {
  for (let waitMs = 200; !signal.aborted; waitMs = Math.min(waitMs * 2, 5_000)) {
    const deployment = await deploymentState(connection, namespace, deploymentName);
    if (deployment?.current === buildId) return 'current';
    if (deployment?.versions.includes(buildId)) {
      const newest = deployment.versions.at(-1);
      if (newest !== buildId) {
        logger.info(
          { buildId, newest, current: deployment.current ?? 'none' },
          'a newer build runs: this worker finishes the workflows pinned to its own',
        );
        return 'newer build runs';
      }
      try {
        await connection.workflowService.setWorkerDeploymentCurrentVersion({
          namespace,
          deploymentName,
          buildId,
          identity: `worker build ${buildId}`,
        });
        logger.info(
          { buildId, previous: deployment.current ?? 'none' },
          'this build is now the current version of the worker deployment: new workflows start on it',
        );
        return 'current';
      } catch (err) {
        logger.debug({ err, buildId }, 'the current version could not be set yet; trying again');
      }
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return 'stopped';
}
