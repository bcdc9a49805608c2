import fc from 'fast-check';

import { callAs } from '../support/accounts';
import { sendingAccount } from '../support/documents';
import { callApi } from '../support/http';
import { valid, wild } from '../support/schema-arbitrary';

/**
 * Schema-driven fuzzing with a fixed budget: requests generated from
 * /v1/openapi.json itself (and bent out of shape), sent with a real key. No
 * answer may be a 5xx, and every answer must be one the description
 * documents, with the documented body (callApi checks that on every
 * request): a client generated from the description never meets a surprise.
 */

const RUNS_PER_OPERATION = 8;

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: 'path' | 'query'; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
}

describe('schema-driven fuzzing of the API', () => {
  it('when requests are generated from the description (and bent), then no answer is a 5xx or undocumented', async () => {
    const sender = await sendingAccount();
    const description = (await callApi('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
      components: { schemas: Record<string, unknown> };
    };
    const components = description.components.schemas;
    const operations: Operation[] = Object.entries(description.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
    );
    // Not the one that would lock this test's own key out of the rest, and not deprecation tests' routes.
    const fuzzed = operations.filter((operation) => !(operation.method === 'DELETE' && operation.path === '/v1/account/keys/{prefix}'));
    expect(fuzzed.length).toBeGreaterThan(25);

    // XML bodies (the public UBL validator): text, broken markup, foreign roots and empty UBL roots.
    const xmlBodies = fc.oneof(
      fc.string(),
      fc.string().map((text) => `<Invoice>${text}`),
      fc.constantFrom('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>', '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'),
    );
    const failures: string[] = [];
    for (const operation of fuzzed) {
      const parameters = operation.parameters ?? [];
      const request = fc.record({
        path: fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema, components).map(String)]))),
        query: fc.record(
          Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, fc.option(wild(p.schema, components).map(String), { nil: undefined })])),
        ),
        body: !operation.requestBody
          ? fc.constant(undefined)
          : operation.requestBody.content['application/json']
            ? wild(operation.requestBody.content['application/json'].schema, components)
            : xmlBodies,
      });
      for (const sample of fc.sample(request, { numRuns: RUNS_PER_OPERATION, seed: 4242 })) {
        const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(sample.path[name])));
        const query = new URLSearchParams(Object.entries(sample.query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
        const url = `${path}${query ? `?${query}` : ''}`;
        try {
          const xml = operation.requestBody?.content['application/xml'] !== undefined;
          const response = xml
            ? await callApi(url, { method: operation.method, headers: { 'Content-Type': 'application/xml' }, body: String(sample.body) })
            : await callAs(sender.key, url, { method: operation.method, ...(sample.body !== undefined && { body: sample.body }) });
          if (response.status >= 500) failures.push(`${operation.method} ${url} answered ${response.status}: ${response.text.slice(0, 300)}`);
        } catch (err) {
          failures.push(`${operation.method} ${url}: ${(err as Error).message.slice(0, 600)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
