import { randomUUID } from 'node:crypto';

import mongoose from 'mongoose';

import { queryPostgres } from '../../stack/production/postgres';
import { PEPPOL_REPORTING_SCHEDULE, SEARCH_ATTRIBUTE_TYPES, sendWorkflowId } from '../../workflows/shared';
import { validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { sendingAccount, waitForStatus } from '../support/documents';
import { until } from '../support/until';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';

/**
 * What only the production shape has: the Temporal server's own stores on PostgreSQL (its visibility store
 * answers the search attributes), schedules on a real server, FerretDB's data in PostgreSQL, the Web UI
 * served beside the server, and the API behind the front proxy.
 */

const temporal = sharedTemporalClient();

const visibility = <Row>(sql: string, values: unknown[]) =>
  queryPostgres<Row>(sharedStack().postgresPort, 'temporal_visibility', sql, values);

describe('the production shape', () => {
  beforeAll(() => {
    if (sharedStack().shape !== 'production')
      throw new Error('these tests run on the production shape: jest --config test/production/jest.config.js');
  });

  it('when a document is delivered, then its workflow and search attributes are in the Temporal server’s visibility store on PostgreSQL, and a query by them finds it', async () => {
    const sender = await sendingAccount();
    const body = {
      ...validFixtures[0]!.body,
      company_id: sender.companyId,
      to: { ...(validFixtures[0]!.body.to as object), email: 'visible@example.com' },
    };
    const accepted = await callAs(sender.key, '/v1/documents', { method: 'POST', body });
    expect(accepted.status).toBe(202);
    await waitForStatus(sender.key, accepted.body.id, sender.companyId, ['delivered']);

    const rows = await until(
      'the send workflow in the visibility store',
      () =>
        visibility<{ status: number; search_attributes: Record<string, string> }>(
          'SELECT status, search_attributes FROM executions_visibility WHERE workflow_id = $1',
          [sendWorkflowId(accepted.body.id)],
        ),
      (found) => Object.values(found[0]?.search_attributes ?? {}).includes('delivered'),
    );
    // Stored under the columns the server gave the attributes (Keyword01 …); the query below goes by their names.
    expect(Object.values(rows[0]!.search_attributes)).toEqual(
      expect.arrayContaining([accepted.body.id, sender.companyId, 'sandbox', 'delivered']),
    );
    const listed: string[] = [];
    for await (const execution of temporal().workflow.list({ query: `DocumentId = '${accepted.body.id}'` }))
      listed.push(execution.workflowId);
    expect(listed).toEqual([sendWorkflowId(accepted.body.id)]);
  });

  it('the project’s search attributes are registered on the server through its operator API', async () => {
    const registered = await temporal().connection.operatorService.listSearchAttributes({
      namespace: sharedStack().namespace,
    });
    expect(Object.keys(registered.customAttributes ?? {})).toEqual(
      expect.arrayContaining(Object.keys(SEARCH_ATTRIBUTE_TYPES)),
    );
  });

  it('when the reporting schedule is triggered, then its workflow runs once on the server and completes', async () => {
    const schedule = temporal().schedule.getHandle(PEPPOL_REPORTING_SCHEDULE);
    const before = (await schedule.describe()).info.recentActions.length;
    await schedule.trigger();
    const described = await until(
      'the schedule’s action',
      () => schedule.describe(),
      (found) => found.info.recentActions.length > before,
      60_000,
    );
    const started = described.info.recentActions.at(-1)!.action.workflow.workflowId;
    await temporal().workflow.getHandle(started).result();
    expect(started).toMatch(new RegExp(`^${PEPPOL_REPORTING_SCHEDULE}`));
    expect((await schedule.describe()).info.recentActions.length - before).toBe(1);
  });

  it('FerretDB keeps the service’s collections in PostgreSQL', async () => {
    const tables = await queryPostgres<{ table_name: string }>(
      sharedStack().postgresPort,
      'ferretdb',
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      ['einvoice'],
    );
    expect(tables.length).toBeGreaterThan(5);
  });

  it('FerretDB on PostgreSQL keeps a conditional update single and a counter whole when writers race (compare-and-swap)', async () => {
    const connections = await Promise.all(
      [1, 2, 3].map(() => mongoose.createConnection(sharedStack().mongodbUri).asPromise()),
    );
    try {
      const collection = (index: number) =>
        connections[index % connections.length]!.collection<{ _id: string; status?: string; count?: number }>(
          'engines_race',
        );
      const id = `race-${randomUUID()}`;
      await collection(0).insertOne({ _id: id, status: 'queued', count: 0 });
      // Before the compare-and-swap reached this backend, both kinds of race were lost here: increments vanished, and
      // every racer's move from queued counted as done.
      await Promise.all(
        Array.from({ length: 60 }, (_, index) => collection(index).updateOne({ _id: id }, { $inc: { count: 1 } })),
      );
      const moves = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          collection(index).updateOne({ _id: id, status: 'queued' }, { $set: { status: `sending-${index}` } }),
        ),
      );
      expect(moves.filter((move) => move.modifiedCount === 1)).toHaveLength(1);
      expect(await collection(0).findOne({ _id: id })).toMatchObject({
        count: 60,
        status: expect.stringMatching(/^sending-\d+$/),
      });
    } finally {
      await Promise.all(connections.map((connection) => connection.close()));
    }
  });

  it('the Temporal Web UI is served, pointed at the server', async () => {
    const settings = await fetch(`${sharedStack().temporalUi}/api/v1/settings`);
    expect(settings.status).toBe(200);
    const namespaces = (await (await fetch(`${sharedStack().temporalUi}/api/v1/namespaces`)).json()) as {
      namespaces: { namespaceInfo: { name: string } }[];
    };
    expect(namespaces.namespaces.map((namespace) => namespace.namespaceInfo.name)).toContain(sharedStack().namespace);
  });

  it('the API answers through the front proxy, which names the client itself: an X-Forwarded-For the client sends is replaced', async () => {
    const response = await fetch(`${sharedStack().apiUrl}/v1/health`, {
      headers: { 'X-Forwarded-For': '203.0.113.9' },
    });
    expect(response.status).toBe(200);
  });
});
