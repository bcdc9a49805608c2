import fc from 'fast-check';

import { callAs, fakeClientIp } from '../support/accounts';
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

/** Bodies per operation in the positive direction: each draws every field the schema has, so a few dozen cover the stated rules. */
const VALID_BODIES_PER_OPERATION = 10;

/**
 * The codes that say "this field's value breaks a rule of its shape": a body
 * the description allows must never get one. Answers for the state (404,
 * 409, 402, 422) and a rule's own code (`webhook_url_not_allowed`) are fine.
 */
const SHAPE_CODES = new Set([
  'invalid_field',
  'missing_field',
  'invalid_country',
  'invalid_peppol_id',
  'no_fields_to_update',
  'invalid_json',
]);

/**
 * The shape rules a pattern cannot state, said in words beside it: check digits (Peppol ids of some schemes, IBANs),
 * and how many of each character class an SMP migration key needs.
 */
const STATED_IN_WORDS = /check digits|of each character class/;

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
    const fuzzed = operations.filter(
      (operation) => !(operation.method === 'DELETE' && operation.path === '/v1/account/keys/{prefix}'),
    );
    expect(fuzzed.length).toBeGreaterThan(25);

    // XML bodies (the public UBL validator, sandbox inbound, a client's UBL document): text, broken markup, foreign roots and empty UBL roots.
    const xmlBodies = fc.oneof(
      fc.string(),
      fc.string().map((text) => `<Invoice>${text}`),
      fc.constantFrom(
        '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>',
        '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
      ),
    );
    const failures: string[] = [];
    for (const operation of fuzzed) {
      const parameters = operation.parameters ?? [];
      const request = fc.record({
        path: fc.record(
          Object.fromEntries(
            parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema, components).map(String)]),
          ),
        ),
        query: fc.record(
          Object.fromEntries(
            parameters
              .filter((p) => p.in === 'query')
              .map((p) => [p.name, fc.option(wild(p.schema, components).map(String), { nil: undefined })]),
          ),
        ),
        // An operation that takes JSON and XML (POST /v1/documents) gets both.
        body: !operation.requestBody
          ? fc.constant(undefined)
          : fc.oneof(
              ...(operation.requestBody.content['application/json']
                ? [wild(operation.requestBody.content['application/json'].schema, components).map((json) => ({ json }))]
                : []),
              ...(operation.requestBody.content['application/xml'] ? [xmlBodies.map((xml) => ({ xml }))] : []),
            ),
      });
      for (const sample of fc.sample(request, { numRuns: RUNS_PER_OPERATION, seed: 4242 })) {
        const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          encodeURIComponent(String(sample.path[name])),
        );
        const query = new URLSearchParams(
          Object.entries(sample.query).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ).toString();
        const url = `${path}${query ? `?${query}` : ''}`;
        try {
          // From an address of its own, as every test does: the per-address limits (lookups: 5 an hour on the test
          // stack) of the loopback address stay for the one client that cannot say otherwise, the MCP server.
          const from = { 'X-Forwarded-For': fakeClientIp() };
          const response =
            sample.body && 'xml' in sample.body
              ? await callApi(url, {
                  method: operation.method,
                  headers: { Authorization: `Bearer ${sender.key}`, 'Content-Type': 'application/xml', ...from },
                  body: sample.body.xml,
                })
              : await callAs(sender.key, url, {
                  method: operation.method,
                  headers: from,
                  ...(sample.body !== undefined && { body: sample.body.json }),
                });
          if (response.status >= 500)
            failures.push(`${operation.method} ${url} answered ${response.status}: ${response.text.slice(0, 300)}`);
        } catch (err) {
          failures.push(`${operation.method} ${url}: ${(err as Error).message.slice(0, 600)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('when a body follows the description, then no field of it is refused for a rule the description does not state', async () => {
    const sender = await sendingAccount();
    const description = (await callApi('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
      components: { schemas: Record<string, unknown> };
    };
    const webhook = await callAs(sender.key, '/v1/webhooks', {
      method: 'POST',
      body: { url: 'http://localhost:9/hooks', events: ['*'], enabled: false },
    });
    expect(webhook.status).toBe(201);
    // Ids that exist, so each request gets past its path to the checks of its body.
    const bodies: { method: string; path: string; template: string }[] = [
      { method: 'post', template: '/v1/signup', path: '/v1/signup' },
      { method: 'post', template: '/v1/workspaces', path: '/v1/workspaces' },
      { method: 'patch', template: '/v1/workspaces/{id}', path: `/v1/workspaces/${sender.workspaceId}` },
      { method: 'post', template: '/v1/workspaces/{id}/members', path: `/v1/workspaces/${sender.workspaceId}/members` },
      { method: 'post', template: '/v1/companies', path: '/v1/companies' },
      { method: 'patch', template: '/v1/companies/{id}', path: `/v1/companies/${sender.companyId}` },
      { method: 'post', template: '/v1/account/keys', path: '/v1/account/keys' },
      { method: 'post', template: '/v1/webhooks', path: '/v1/webhooks' },
      { method: 'patch', template: '/v1/webhooks/{id}', path: `/v1/webhooks/${webhook.body.id}` },
      { method: 'post', template: '/v1/kyc/submit', path: '/v1/kyc/submit' },
      { method: 'post', template: '/v1/documents/validate', path: '/v1/documents/validate' },
    ];
    const failures: string[] = [];
    for (const { method, template, path } of bodies) {
      const operation = description.paths[template]![method]!;
      const schema = operation.requestBody!.content['application/json']!.schema;
      for (const body of fc.sample(valid(schema, description.components.schemas), {
        numRuns: VALID_BODIES_PER_OPERATION,
        seed: 2121,
      })) {
        const response =
          template === '/v1/signup'
            ? await callApi(path, {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': fakeClientIp() },
                body: JSON.stringify(body),
              })
            : await callAs(sender.key, path, { method: method.toUpperCase(), body });
        const error = (response.body as { error?: { code: string; param?: string; message: string } } | undefined)
          ?.error;
        if (response.status === 400 && error && SHAPE_CODES.has(error.code) && !STATED_IN_WORDS.test(error.message)) {
          failures.push(
            `${method.toUpperCase()} ${template} ${JSON.stringify(body).slice(0, 400)} → 400 ${error.code} ${error.param ?? ''}: ${error.message}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
