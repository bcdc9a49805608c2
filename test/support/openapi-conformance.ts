import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Every answer an integration test gets from an API process is checked
 * against that process's own /v1/openapi.json: the status must be one the
 * operation documents, and a JSON body must match the documented schema. So
 * the description a client generates code from is tested on every request
 * the suite makes, error answers included.
 */

interface Operation {
  pattern: RegExp;
  method: string;
  template: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface Description {
  operations: Operation[];
  validators: Map<string, ValidateFunction | null>;
  ajv: Ajv2020;
}

const descriptions = new Map<string, Promise<Description>>();

async function load(baseUrl: string): Promise<Description> {
  const response = await fetch(new URL('/v1/openapi.json', baseUrl));
  const document = (await response.json()) as {
    paths: Record<string, Record<string, Operation['responses'] | { responses: Operation['responses'] }>>;
    components: unknown;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(methods)) {
      operations.push({
        pattern,
        method: method.toUpperCase(),
        template,
        responses: (operation as { responses: Operation['responses'] }).responses,
      });
    }
  }
  return { operations, validators: new Map(), ajv };
}

const withRefsTo = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));

class UndocumentedResponseError extends Error {
  override name = 'UndocumentedResponseError';
}

/** Throws when the answer is not what the description of its operation says. */
export async function checkAgainstDescription(
  baseUrl: string,
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
): Promise<void> {
  let description = descriptions.get(baseUrl);
  if (!description) {
    description = load(baseUrl);
    descriptions.set(baseUrl, description);
  }
  const { operations, validators, ajv } = await description;
  const pathname = new URL(path, baseUrl).pathname;
  // The most specific path is the one asked, whatever the method (OpenAPI matches concrete paths first):
  // `/v1/documents/batch` is never `/v1/documents/{id}`, and a method that path lacks is not described.
  const [asked] = operations
    .filter((candidate) => candidate.pattern.test(pathname))
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  const operation = operations.find(
    (candidate) => candidate.template === asked?.template && candidate.method === method.toUpperCase(),
  );
  if (!operation) return;
  const documented = operation.responses[String(status)];
  if (!documented) {
    throw new UndocumentedResponseError(
      `${method} ${operation.template} answered ${status}, which its description does not list (${Object.keys(operation.responses).join(', ')}): ${JSON.stringify(body)}`,
    );
  }
  if (!contentType?.startsWith('application/json')) return;
  const key = `${method} ${operation.template} ${status}`;
  if (!validators.has(key)) {
    const schema = documented.content?.['application/json']?.schema;
    validators.set(key, schema ? ajv.compile(withRefsTo(schema) as object) : null);
  }
  const validate = validators.get(key);
  if (validate && !validate(body)) {
    throw new UndocumentedResponseError(
      `${key}: the body does not match its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
