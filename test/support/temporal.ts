import { Client, Connection } from '@temporalio/client';

import { sharedStack } from './test-stack';

/**
 * A Temporal client on the shared stack for the tests of one file, as an
 * operator's tools use it: connected before the file's tests, closed after.
 */
export function sharedTemporalClient(): () => Client {
  let connection: Connection | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    connection = await Connection.connect({ address: sharedStack().temporalAddress });
    client = new Client({ connection, namespace: sharedStack().namespace });
  });
  afterAll(async () => {
    await connection?.close();
  });
  return () => {
    if (!client) throw new Error('the Temporal client is used outside a test');
    return client;
  };
}
