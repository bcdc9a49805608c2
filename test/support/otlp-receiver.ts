import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

// The OTLP messages as the Node exporter's own transformer generates them (protobufjs), to read what the Java agent sends.
import otlp from '@opentelemetry/otlp-transformer/build/src/generated/root';

/** One span as an OTLP collector takes it in, with the `service.name` of the process that made it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for the root of a trace. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
}

export const SPAN_KIND = { server: 2, client: 3 } as const;

interface KeyValue {
  key: string;
  value?: Record<string, unknown>;
}

/** ExportTraceServiceRequest, as OTLP/JSON has it and as protobufjs' toObject gives it (ids then in base64). */
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
      }[];
    }[];
  }[];
}

interface MessageCodec {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: StringConstructor; bytes: StringConstructor }): ExportRequest;
}

/** Its declaration calls the module a protobufjs Root; it is protobufjs' static code: namespaces of message codecs. */
const { ExportTraceServiceRequest } = (
  otlp as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: MessageCodec } } } } };
  }
).opentelemetry.proto.collector.trace.v1;

/** AnyValue holds one of its fields. */
const attributesOf = (attributes: KeyValue[] = []) =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, Object.values(value ?? {})[0]]));

/**
 * A collector of one's own for a test: OTLP/HTTP on 127.0.0.1 at /v1/traces, in JSON (the Node exporter's
 * encoding) or protobuf (the Java agent's), keeping every span in memory.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;

  /** What OTEL_EXPORTER_OTLP_ENDPOINT names: the exporters add /v1/traces. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      this.take(request).then(
        (contentType) =>
          response
            .writeHead(200, { 'Content-Type': contentType })
            .end(contentType === 'application/json' ? '{}' : undefined),
        (err: unknown) => response.writeHead(400).end(String(err)),
      );
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Spans of the trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** Keeps the spans of one export; resolves to the content type the answer has. */
  private async take(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
    // Metrics and logs are not exported (the Java agent is told so); whatever else comes is answered and dropped.
    if (request.url !== '/v1/traces') return 'application/json';
    const json = request.headers['content-type']?.startsWith('application/json') === true;
    const exported: ExportRequest = json
      ? JSON.parse(body.toString('utf8'))
      : ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), { longs: String, bytes: String });
    // OTLP/JSON writes ids in hex, protobufjs gives bytes in base64.
    const hex = (id = '') => (json ? id : Buffer.from(id, 'base64').toString('hex'));
    for (const resourceSpans of exported.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const span of (resourceSpans.scopeSpans ?? []).flatMap((scope) => scope.spans ?? [])) {
        this.spans.push({
          service,
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: hex(span.parentSpanId),
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
        });
      }
    }
    return json ? 'application/json' : 'application/x-protobuf';
  }
}
