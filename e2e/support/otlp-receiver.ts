import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/*
 * A tiny OTLP/HTTP trace receiver (JSON, OTEL_EXPORTER_OTLP_PROTOCOL=http/json) for the traces
 * tests, and the few helpers they read spans with.
 */

export interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values: OtlpValue[] };
}
export interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}

/** OTLP's span kinds (SPAN_KIND_*). */
export const SpanKinds = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

/** A span with the resource it came with (its service's name). */
export interface ReceivedSpan {
  span: OtlpSpan;
  resource: OtlpAttribute[];
}

/** Every JSON body POSTed to /v1/traces, kept as received. */
export interface TraceReceiver {
  url: string;
  bodies: string[];
  /** Every span received so far, with its resource's attributes. */
  received(): ReceivedSpan[];
  /** The spans once `ready` says they are all there; throws after 30 s with them and `details()`. */
  waitForSpans(ready: (spans: OtlpSpan[]) => boolean, details?: () => string): Promise<OtlpSpan[]>;
  close(): Promise<void>;
}

export async function startTraceReceiver(): Promise<TraceReceiver> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const received = (): ReceivedSpan[] =>
    bodies
      .map((body) => JSON.parse(body) as OtlpExport)
      .flatMap((batch) =>
        batch.resourceSpans.flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => ({ span, resource: rs.resource.attributes }))),
        ),
      );
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    received,
    async waitForSpans(ready, details = () => '') {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const spans = received().map((r) => r.span);
        if (ready(spans)) return spans;
        if (Date.now() > deadline) throw new Error(`spans: ${JSON.stringify(spans, null, 1)}\n${details()}`);
        await sleep(100);
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The OTEL_* variables that send a process's spans to `receiver` within a fraction of a second. */
export const otlpEnv = (receiver: TraceReceiver): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  // Sent within a fraction of a second, not the default 5 s.
  OTEL_BSP_SCHEDULE_DELAY: '100',
  OTEL_METRICS_EXPORTER: 'none',
  OTEL_LOGS_EXPORTER: 'none',
});

const valueOf = (value: OtlpValue | undefined): unknown =>
  value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue;

export const attribute = (span: OtlpSpan, key: string): unknown =>
  valueOf(span.attributes?.find((a) => a.key === key)?.value);

/** The first of `keys` the span has, as text ('' when none): semantic conventions renamed some. */
export const text = (span: OtlpSpan, ...keys: string[]): string => {
  for (const key of keys) {
    const value = attribute(span, key);
    if (typeof value === 'string') return value;
  }
  return '';
};

/** Whether `span` lies under `ancestor` in `spans` (parent links within one trace). */
export function descendsFrom(span: OtlpSpan, ancestor: OtlpSpan, spans: OtlpSpan[]): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  let current: OtlpSpan | undefined = span;
  while (current?.parentSpanId) {
    if (current.parentSpanId === ancestor.spanId) return true;
    current = byId.get(current.parentSpanId);
  }
  return false;
}

/** A received span's service (`service.name` of its resource). */
export const serviceOf = (received: ReceivedSpan): string | undefined =>
  received.resource.find((a) => a.key === 'service.name')?.value.stringValue;
