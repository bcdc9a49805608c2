import { randomUUID } from 'node:crypto';

import { Client, Connection } from '@temporalio/client';
import mongoose from 'mongoose';

import { SEARCH_ATTRIBUTE_TYPES, TASK_QUEUE } from '../../workflows/shared';
import { sharedStack } from '../support/test-stack';

describe('the worker on the real stack', () => {
  let connection: Connection;
  let client: Client;

  beforeAll(async () => {
    connection = await Connection.connect({ address: sharedStack().temporalAddress });
    client = new Client({ connection, namespace: sharedStack().namespace });
  });
  afterAll(async () => {
    await connection.close();
  });

  it('when a workflow is started, then the worker runs its activity against the database and returns', async () => {
    const token = `ping-${randomUUID()}`;
    const receivedAt = await client.workflow.execute('pingWorkflow', { taskQueue: TASK_QUEUE, workflowId: token, args: [token] });
    expect(new Date(receivedAt).toISOString()).toBe(receivedAt);

    const db = await mongoose.createConnection(sharedStack().mongodbUri).asPromise();
    try {
      const record = await db.collection('pings').findOne({ _id: token as never });
      expect(record?.received_at.toISOString()).toBe(receivedAt);
    } finally {
      await db.close();
    }
  });

  it('when the stack is up, then the project search attributes are registered for the Web UI', async () => {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: sharedStack().namespace });
    expect(Object.keys(customAttributes ?? {})).toEqual(expect.arrayContaining(Object.keys(SEARCH_ATTRIBUTE_TYPES)));
  });
});
