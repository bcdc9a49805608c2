import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Context } from '@temporalio/activity';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';

import { buildIdOf, takeOverIfNewest, type WorkerVersion } from '../../worker/deployment';
import { QueueWorkers } from '../../worker/task-queues';
import { cachedWorkflowBundle, SILENT_BUNDLER } from '../../worker/workflow-bundle';
import type { sendDocumentWorkflow } from '../../workflows/send-document';
import { recordedAsAccepted, stubAcceptance } from '../support/stub-acceptance';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';
import { QUIET_LOGGER } from './own-worker';

const NAMESPACE = 'default';

/** The send workflow's activities, stubbed; each call is noted with the build whose worker ran it. */
function stubbedActivities(build: string, calls: string[], deliveryGate: Promise<void>) {
  const note = (call: string) => {
    calls.push(`${build}: ${call}`);
    return Promise.resolve();
  };
  return {
    recordAcceptance: recordedAsAccepted,
    embedRenderedPdf: () => Promise.resolve(),
    noteNextBuild: (documentId: string) => note(`noteNextBuild ${documentId}`),
    validateForSending: (documentId: string) =>
      note(`validateForSending ${documentId}`).then(() => ({
        ruleSet: 'eu.peppol.bis3:test',
        refusal: null,
        readablePdf: 'rendered' as const,
      })),
    markSending: () => Promise.resolve({ channel: 'email' as const }),
    deliverByEmail: async (documentId: string) => {
      await note(`deliverByEmail ${documentId}`);
      // A delivery heartbeats while it works (DELIVERY_HEARTBEAT_TIMEOUT_MS); waiting at the gate without it, a wait
      // longer than that (two busy cores) timed the attempt out, and the retry was a second delivery.
      const activity = Context.current();
      const beating = setInterval(() => activity.heartbeat(), 1_000);
      await deliveryGate.finally(() => clearInterval(beating));
      return { messageId: `<${documentId}@einvoice.localhost>`, sentAt: '2026-12-05T10:00:00.000Z' };
    },
    markDelivered: (documentId: string) => note(`markDelivered ${documentId}`),
    markFailed: (documentId: string, reason: string) => note(`markFailed ${documentId}: ${reason}`),
  };
}

/** Temporal's runtime, logging errors only, unless this process installed one already. */
function installQuietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already in this process.
  }
}

/** Build N (the workflow bundle of this code) and build N+1 (./next-build, bundled into `scratch`), as versions of the deployment. */
async function bothBuilds(deploymentName: string, scratch: string) {
  const bundleN = await cachedWorkflowBundle();
  const bundleNext = path.join(scratch, 'next-build.js');
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('./next-build'),
    logger: SILENT_BUNDLER,
  });
  await writeFile(bundleNext, code);
  const versionN: WorkerVersion = { deploymentName, buildId: await buildIdOf(bundleN) };
  const versionNext: WorkerVersion = { deploymentName, buildId: await buildIdOf(bundleNext) };
  expect(versionNext.buildId).not.toBe(versionN.buildId);
  return { bundleN, bundleNext, versionN, versionNext };
}

/** The build a workflow ran on, as the server describes it. */
const buildOf = async (handle: {
  describe(): Promise<{
    raw: {
      workflowExecutionInfo?: {
        versioningInfo?: { deploymentVersion?: { buildId?: string | null } | null } | null;
      } | null;
    };
  }>;
}) => (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId;

/** Once the gate is open, the workflow started after the takeover completes on N+1, each one in flight on N. */
async function expectEachDeliveredOnItsBuild(
  after: WorkflowHandle,
  inFlight: WorkflowHandle[],
  versionN: WorkerVersion,
  versionNext: WorkerVersion,
): Promise<void> {
  await expect(after.result()).resolves.toBe('delivered');
  expect(await buildOf(after)).toBe(versionNext.buildId);
  for (const handle of inFlight) {
    await expect(handle.result()).resolves.toBe('delivered');
    expect(await buildOf(handle)).toBe(versionN.buildId);
  }
}

/** Every step of the workflows in flight ran on N, none on N+1; replayed on N+1's code, one would break. */
async function expectInFlightStepsOnlyOnN(calls: string[], inFlight: WorkflowHandle[], bundleNext: string) {
  for (const id of ['doc_n1', 'doc_n2', 'doc_n3']) {
    expect(calls.filter((call) => call.endsWith(` ${id}`))).toEqual([
      `N: validateForSending ${id}`,
      `N: deliverByEmail ${id}`,
      `N: markDelivered ${id}`,
    ]);
  }
  await expect(
    Worker.runReplayHistory({ workflowBundle: { codePath: bundleNext } }, await inFlight[0]!.fetchHistory()),
  ).rejects.toThrow(/[Nn]ondeterminism/);
}

/**
 * Deploying build N+1 beside build N with workflows in flight (docs/operations.md, Deploying with work in
 * flight), on the shared stack's Temporal server, in a worker deployment of the test's own. Build N+1 changes the
 * send workflow's shape (a step before all others): the workflows started on N finish on N, every one of them,
 * and those started after N+1 took over run on N+1.
 */
describe('worker versioning', () => {
  it('when build N+1 starts beside build N with send workflows in flight, then it takes over new workflows and every workflow in flight completes on N', async () => {
    installQuietRuntime();
    const address = sharedStack().temporalAddress;
    const deploymentName = `versions-test-${randomUUID().slice(0, 8)}`;
    const taskQueue = `${deploymentName}-queue`;
    const scratch = await mkdtemp(path.join(tmpdir(), 'worker-versions-'));
    const native = await NativeConnection.connect({ address });
    const connection = await Connection.connect({ address });
    const client = new Client({ connection, namespace: NAMESPACE });
    const calls: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const stopping = new AbortController();
    const workers: [QueueWorkers, Promise<void>][] = [];
    try {
      const { bundleN, bundleNext, versionN, versionNext } = await bothBuilds(deploymentName, scratch);

      const workerOf = (version: WorkerVersion, codePath: string, build: string) =>
        QueueWorkers.create({
          connection: native,
          namespace: NAMESPACE,
          baseQueue: taskQueue,
          codePath,
          version,
          activities: stubbedActivities(build, calls, gate),
        });
      const start = (documentId: string) =>
        client.workflow.start<typeof sendDocumentWorkflow>('sendDocumentWorkflow', {
          taskQueue,
          workflowId: `${deploymentName}-${documentId}`,
          args: [{ documentId, acceptance: stubAcceptance(documentId), deliveryWindowSeconds: 60 }],
        });

      const workerN = await workerOf(versionN, bundleN, 'N');
      workers.push([workerN, workerN.run()]);
      expect(await takeOverIfNewest(connection, NAMESPACE, versionN, QUIET_LOGGER, stopping.signal)).toBe('current');
      const inFlight = await Promise.all(['doc_n1', 'doc_n2', 'doc_n3'].map(start));
      await until(
        'the three workflows of build N delivering',
        () => Promise.resolve(calls),
        (seen) => ['doc_n1', 'doc_n2', 'doc_n3'].every((id) => seen.includes(`N: deliverByEmail ${id}`)),
        30_000,
      );

      const workerNext = await workerOf(versionNext, bundleNext, 'N+1');
      workers.push([workerNext, workerNext.run()]);
      expect(await takeOverIfNewest(connection, NAMESPACE, versionNext, QUIET_LOGGER, stopping.signal)).toBe('current');
      // A worker of build N that starts again now (a crash, a restart) drains its own and takes nothing back.
      expect(await takeOverIfNewest(connection, NAMESPACE, versionN, QUIET_LOGGER, stopping.signal)).toBe(
        'newer build runs',
      );

      const after = await start('doc_next');
      await until(
        'the workflow started after the takeover on build N+1',
        () => Promise.resolve(calls),
        (seen) => seen.includes('N+1: noteNextBuild doc_next'),
        30_000,
      );
      openGate();
      await expectEachDeliveredOnItsBuild(after, inFlight, versionN, versionNext);
      await expectInFlightStepsOnlyOnN(calls, inFlight, bundleNext);
    } finally {
      openGate();
      for (const [worker, running] of workers) {
        worker.shutdown();
        await running;
      }
      stopping.abort();
      await connection.close();
      await native.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 180_000);
});
