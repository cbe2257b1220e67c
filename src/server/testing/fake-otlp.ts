import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

// A stand-in OpenTelemetry collector for tests: an OTLP/HTTP receiver on loopback that takes
// JSON trace exports (POST /v1/traces, what @opentelemetry/exporter-trace-otlp-http sends),
// keeps every body as it arrived (to search for leaks) and the spans flattened.

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value?: AnyValue };

export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  events: { name: string; attributes: Record<string, unknown> }[];
  resource: Record<string, unknown>;
  scope: string;
};

const anyValue = (value: AnyValue | undefined): unknown => {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(anyValue);
  return undefined;
};

const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, anyValue(kv.value)]));

export type FakeOtlpCollector = {
  /** The base URL to give as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** Every export body, decompressed, as text. */
  bodies: string[];
  /** Every export request's headers. */
  headers: http.IncomingHttpHeaders[];
  /** Resolves with the spans received so far once `test` holds for one of them (polls). */
  waitFor: (test: (span: ReceivedSpan) => boolean, timeoutMs?: number) => Promise<ReceivedSpan>;
  close: () => Promise<void>;
};

export const startFakeOtlpCollector = async (): Promise<FakeOtlpCollector> => {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      if (!String(request.headers['content-type'] ?? '').includes('json')) {
        response.writeHead(415).end();
        return;
      }
      const text = body.toString('utf8');
      bodies.push(text);
      headers.push(request.headers);
      const parsed = JSON.parse(text) as {
        resourceSpans?: {
          resource?: { attributes?: KeyValue[] };
          scopeSpans?: {
            scope?: { name?: string };
            spans?: {
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              name: string;
              kind: number;
              attributes?: KeyValue[];
              status?: { code?: number; message?: string };
              events?: { name: string; attributes?: KeyValue[] }[];
            }[];
          }[];
        }[];
      };
      for (const rs of parsed.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              status: s.status ?? {},
              events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
              resource,
              scope: ss.scope?.name ?? '',
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    headers,
    waitFor: async (test, timeoutMs = 30_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(test);
        if (found) return found;
        if (Date.now() > until)
          throw new Error(
            `no matching span within ${timeoutMs} ms; received: ${spans.map((s) => s.name).join(', ') || 'none'}`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
