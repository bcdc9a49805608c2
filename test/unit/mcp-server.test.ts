import { toolInputSchema } from '../../mcp/input-schema';
import { failureResult } from '../../mcp/results';
import { DEFAULT_BASE_URL, DEFAULT_LIVE_BASE_URL, settingsFrom, SettingsError } from '../../mcp/settings';
import { TOOLS } from '../../mcp/tools';
import { documentInputSchema } from '../../domain/documents/input';
import { ApiError } from '../../sdk/src';

/**
 * The MCP server's own logic: its settings, how an API error becomes a tool
 * error an agent can act on, and the tools' input schemas as JSON Schema.
 */

const textOf = (result: ReturnType<typeof failureResult>) => JSON.parse((result.content[0] as { text: string }).text);

describe('the MCP server settings', () => {
  it('when the key is missing or blank, then it refuses to start, naming the variable', () => {
    for (const env of [{}, { EINVOICE_API_KEY: '  ' }]) {
      expect(() => settingsFrom(env)).toThrow(SettingsError);
      expect(() => settingsFrom(env)).toThrow(/EINVOICE_API_KEY is not set/);
    }
  });

  it('when the base URL is absent, then it is the local API, and a live key its live host; when it is no http(s) URL, then it refuses', () => {
    expect(settingsFrom({ EINVOICE_API_KEY: 'ps_test_abc' })).toEqual({
      apiKey: 'ps_test_abc',
      baseUrl: DEFAULT_BASE_URL,
      liveBaseUrl: DEFAULT_LIVE_BASE_URL,
    });
    expect(
      settingsFrom({ EINVOICE_API_KEY: 'ps_test_abc', EINVOICE_BASE_URL: 'https://api.example.com' }).baseUrl,
    ).toBe('https://api.example.com');
    expect(() => settingsFrom({ EINVOICE_API_KEY: 'ps_test_abc', EINVOICE_BASE_URL: 'api.example.com' })).toThrow(
      /EINVOICE_BASE_URL is not a URL/,
    );
    expect(() => settingsFrom({ EINVOICE_API_KEY: 'ps_test_abc', EINVOICE_BASE_URL: 'ftp://api.example.com' })).toThrow(
      /must be an http\(s\) URL/,
    );
  });

  it('when a live base URL is given, then a live key talks to it; a base URL alone serves both keys', () => {
    const env = {
      EINVOICE_BASE_URL: 'https://sandbox.example.com',
      EINVOICE_LIVE_BASE_URL: 'https://live.example.com/',
    };
    expect(settingsFrom({ ...env, EINVOICE_API_KEY: 'ps_test_abc' })).toEqual({
      apiKey: 'ps_test_abc',
      baseUrl: 'https://sandbox.example.com',
      liveBaseUrl: 'https://live.example.com/',
    });
    expect(settingsFrom({ EINVOICE_API_KEY: 'ps_live_abc', EINVOICE_BASE_URL: 'https://api.example.com' })).toEqual({
      apiKey: 'ps_live_abc',
      baseUrl: 'https://api.example.com',
    });
    expect(() => settingsFrom({ EINVOICE_API_KEY: 'ps_live_abc', EINVOICE_LIVE_BASE_URL: 'live.example.com' })).toThrow(
      /EINVOICE_LIVE_BASE_URL is not a URL/,
    );
  });

  it('when the base URL holds credentials, then it refuses without repeating them, and no failure message repeats them either', () => {
    for (const url of [
      'https://admin:s3cret-pw@api.example.com',
      'ftp://admin:s3cret-pw@api.example.com',
      'notaurl//admin:s3cret-pw@',
    ]) {
      const refusal = (() => {
        try {
          settingsFrom({ EINVOICE_API_KEY: 'ps_test_abc', EINVOICE_BASE_URL: url });
        } catch (err) {
          return (err as Error).message;
        }
        return 'accepted';
      })();
      expect(refusal).toMatch(/EINVOICE_BASE_URL/);
      expect(refusal).not.toContain('s3cret-pw');
    }
    const failure = failureResult(
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED http://admin:s3cret-pw@10.0.0.1') }),
      'http://admin:s3cret-pw@10.0.0.1',
    );
    expect(JSON.stringify(failure)).not.toContain('s3cret-pw');
  });
});

describe('tool errors', () => {
  it('when the API refuses, then the tool error carries the envelope, the status and the request id', () => {
    const refused = new ApiError({
      status: 429,
      code: 'rate_limit_exceeded',
      type: 'rate_limit_error',
      message: 'Too many requests.',
      param: 'lines[0].quantity',
      details: { limit: 600 },
      retryable: true,
      requestId: 'req_123',
      retryAfterSeconds: 7,
    });
    const result = failureResult(refused, 'http://api.test');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toEqual({
      error: {
        type: 'rate_limit_error',
        code: 'rate_limit_exceeded',
        message: 'Too many requests.',
        retry: { retryable: true, after_seconds: 7 },
        param: 'lines[0].quantity',
        details: { limit: 600 },
        status: 429,
        request_id: 'req_123',
      },
    });
  });

  it('when the API gives no answer, then the tool error says where it was asked and why it failed', () => {
    const result = failureResult(
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:3000') }),
      'http://127.0.0.1:3000',
    );
    expect(result.isError).toBe(true);
    expect(textOf(result).error.message).toBe(
      'No answer from the API at http://127.0.0.1:3000 (fetch failed: connect ECONNREFUSED 127.0.0.1:3000).',
    );
  });
});

describe('tool input schemas', () => {
  it("when a named schema (DocumentRequest) is converted, then the root is the object itself, with every field of the API's schema", () => {
    const schema = toolInputSchema(documentInputSchema);
    expect(schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['company_id', 'number', 'to', 'lines']),
      additionalProperties: false,
    });
    expect(schema.$ref).toBeUndefined();
    expect(Object.keys(schema.properties!)).toEqual(Object.keys(documentInputSchema.shape));
  });

  it('when a field is documented with .openapi(), then its description, pattern and example reach the tool schema', () => {
    const lookup = toolInputSchema(TOOLS.find((tool) => tool.name === 'lookup_participant')!.input);
    expect(lookup.properties!.peppol_id).toMatchObject({
      description: expect.stringContaining('scheme:id'),
      pattern: expect.any(String),
      examples: ['0208:0123456749'],
    });
    const list = toolInputSchema(TOOLS.find((tool) => tool.name === 'list_documents')!.input);
    expect(list.properties!.limit).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
      description: '1 to 100, default 20',
    });
  });
});
