import { rm } from 'node:fs/promises';

import { addCredits, operatorActor } from '../../services/operator/workspaces';
import type { StackConfig } from '../../stack/config';
import { startStack, type EmbeddedStack } from '../../stack/embedded-stack';
import { ACCEPT_UPDATE, sendWorkflowId } from '../../workflows/shared';
import { validFixtures } from '../fixtures/documents';
import { callAs, withStore } from '../support/accounts';
import { LIVE, liveSender, postLive } from '../support/documents';
import { OtlpReceiver, SPAN_KIND, type ReceivedSpan } from '../support/otlp-receiver';
import { until } from '../support/until';
import { isolatedStackConfig, sharedStack } from '../support/test-stack';

/**
 * Traces across the three processes. A stack of its own exports to a collector the test runs
 * (OTEL_EXPORTER_OTLP_ENDPOINT): the API and the worker with the OpenTelemetry Node SDK and Temporal's
 * interceptors, our access point with the OpenTelemetry Java agent. Sending a live document makes one trace
 * from the API's request through the workflow and its delivery activity to the access point's send; the
 * Message Level Status the stand-in's access point sends back makes another, from our access point's AS4
 * intake through the API's intake to the receive workflow.
 */

const SERVICE = { api: 'einvoice-api', worker: 'einvoice-worker', accessPoint: 'einvoice-access-point' };

/** The span and its ancestors up to the root of its trace, each as `service name`. */
function lineage(span: ReceivedSpan, trace: ReceivedSpan[]): string[] {
  const chain: string[] = [];
  for (
    let at: ReceivedSpan | undefined = span;
    at;
    at = trace.find((candidate) => candidate.spanId === at.parentSpanId)
  )
    chain.push(`${at.service} ${at.name}`);
  return chain;
}

/** The entries of `chain` that are among `milestones`, in the chain's order. */
const milestonesOf = (chain: string[], milestones: string[]) => chain.filter((entry) => milestones.includes(entry));

const served = (trace: ReceivedSpan[], service: string, path: string) =>
  trace.find(
    (span) =>
      span.service === service &&
      span.kind === SPAN_KIND.server &&
      (span.attributes['http.target'] ?? span.attributes['url.path']) === path,
  );

describe('traces across the API, the worker and our access point', () => {
  const collector = new OtlpReceiver();
  let config: StackConfig | undefined;
  let stack: EmbeddedStack | undefined;

  beforeAll(async () => {
    await collector.start();
    // The shared stack's validator: one JVM less to start.
    config = await isolatedStackConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      VALIDATOR_URL: sharedStack().validatorUrl,
    });
    stack = await startStack({ config });
  }, 420_000);

  afterAll(async () => {
    await stack?.stop();
    await collector.stop();
    if (config) await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  it('when a live document is sent, then one trace runs from POST /v1/documents through the send workflow and its delivery to the access point, and the MLS that comes back is one trace from the access point through the intake to the receive workflow', async () => {
    const on = { apiUrl: stack!.urls.api!, mongodbUri: stack!.urls.mongodb };
    const live = { host: LIVE, baseUrl: on.apiUrl };
    const sender = await liveSender(on);
    await withStore((store) => addCredits(store, operatorActor('test'), sender.workspaceId, '5.00'), on.mongodbUri);
    const posted = await postLive(
      sender.liveKey,
      { ...validFixtures[0]!.body, company_id: sender.companyId, number: 'TRACED-1' },
      live,
    );
    expect(posted.status).toBe(202);
    const id: string = posted.body.id;
    // The stand-in's access point sends its MLS to our service provider participant once the document arrived.
    const document = await until(
      'the document delivered and its MLS filed',
      async () => (await callAs(sender.liveKey, `/v1/documents/${id}?company_id=${sender.companyId}`, live)).body,
      (body) => body.status === 'failed' || body.mls !== null,
      120_000,
    );
    expect(document).toMatchObject({ status: 'delivered', mls: { code: 'AP' } });

    // The send: the API's start of this document's workflow (Update-with-Start) names the trace; the worker's and the access point's spans join it.
    const start = await until(
      'the start of the send workflow',
      () =>
        Promise.resolve(
          collector.spans.find(
            (span) =>
              span.name === `UpdateWithStartWorkflow:${ACCEPT_UPDATE}` &&
              span.attributes.temporalWorkflowId === sendWorkflowId(id),
          ),
        ),
      (span) => span !== undefined,
    );
    const send = await until(
      'the spans of the workflow and of the access point',
      () => Promise.resolve(collector.trace(start!.traceId)),
      (trace) =>
        trace.some((span) => span.name === 'RunWorkflow:sendDocumentWorkflow') &&
        served(trace, SERVICE.accessPoint, '/send') !== undefined,
    );
    const request = send.find((span) => span.parentSpanId === '')!;
    expect(request).toMatchObject({
      service: SERVICE.api,
      kind: SPAN_KIND.server,
      attributes: expect.objectContaining({ 'http.method': 'POST', 'http.target': '/v1/documents' }),
    });
    const apSend = served(send, SERVICE.accessPoint, '/send')!;
    const sendMilestones = [
      `${SERVICE.worker} RunActivity:deliverOnPeppol`,
      `${SERVICE.worker} RunWorkflow:sendDocumentWorkflow`,
      `${SERVICE.api} UpdateWithStartWorkflow:${ACCEPT_UPDATE}`,
      `${SERVICE.api} ${request.name}`,
    ];
    expect(milestonesOf(lineage(apSend, send), sendMilestones)).toEqual(sendMilestones);
    expect(new Set(send.map((span) => span.service))).toEqual(new Set(Object.values(SERVICE)));

    // The MLS: the only message this stack receives. Its trace starts where it arrived, at our access point.
    const received = await until(
      'the receive workflow',
      () => Promise.resolve(collector.spans.find((span) => span.name === 'RunWorkflow:receiveDocumentWorkflow')),
      (span) => span !== undefined,
    );
    const receive = await until(
      'the intake in the same trace',
      () => Promise.resolve(collector.trace(received!.traceId)),
      (trace) => served(trace, SERVICE.api, '/inbound') !== undefined && trace.some((span) => span.parentSpanId === ''),
    );
    const arrival = receive.find((span) => span.parentSpanId === '')!;
    expect(arrival).toMatchObject({
      service: SERVICE.accessPoint,
      kind: SPAN_KIND.server,
      attributes: expect.objectContaining({ 'url.path': '/as4' }),
    });
    const receiveMilestones = [
      `${SERVICE.worker} RunWorkflow:receiveDocumentWorkflow`,
      `${SERVICE.api} StartWorkflow:receiveDocumentWorkflow`,
      `${SERVICE.api} ${served(receive, SERVICE.api, '/inbound')!.name}`,
      `${SERVICE.accessPoint} ${arrival.name}`,
    ];
    expect(milestonesOf(lineage(received!, receive), receiveMilestones)).toEqual(receiveMilestones);
  }, 240_000);
});
