import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { SpanKind } from 'bullmq';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parentRequiredQueueTelemetry, parentRequiredTracerProvider } from './parent-required.js';

/*
 * Background work starts no trace: a span asked for with no parent (a statement of the visit
 * mover, a circuit probe, a BullMQ poll or stalled check) is not recorded; under a request's or a
 * job's span it is, as that span's child.
 */
const exporter = new InMemorySpanExporter();
// As tracing.ts starts it (global provider, context manager, W3C propagator), exporting to memory.
const processor = new SimpleSpanProcessor({ exporter });
const sdk = new NodeSDK({ spanProcessors: [processor], instrumentations: [] });
sdk.start();
const provider = trace.getTracerProvider();

afterAll(() => sdk.shutdown());
beforeEach(() => exporter.reset());

/** The spans ended so far (the processor exports once the resource is known). */
async function finished() {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
}

/** A context holding a recorded span, as a request's handler has. */
function underRequest() {
  const request = provider.getTracer('test').startSpan('GET /:code');
  return { request, ctx: trace.setSpan(ROOT_CONTEXT, request) };
}

describe('parentRequiredTracerProvider (mysql2)', () => {
  const tracer = parentRequiredTracerProvider(provider).getTracer('mysql2');

  it('records nothing for a span with no parent', async () => {
    const span = tracer.startSpan('SELECT', {}, ROOT_CONTEXT);
    expect(span.isRecording()).toBe(false);
    span.end();
    tracer.startActiveSpan('UPDATE', (active) => active.end());
    expect(await finished()).toEqual([]);
  });

  it("records a span under a request's as its child", async () => {
    const { request, ctx } = underRequest();
    tracer.startSpan('SELECT', {}, ctx).end();
    request.end();
    const [child] = await finished();
    expect(child?.name).toBe('SELECT');
    expect(child?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
  });
});

describe('parentRequiredQueueTelemetry (BullMQ)', () => {
  const telemetry = parentRequiredQueueTelemetry();

  it('records nothing for a poll or a stalled check, and leaves the context as it was', async () => {
    const span = telemetry.tracer.startSpan('getNextJob thumbs', { kind: SpanKind.INTERNAL }, ROOT_CONTEXT);
    expect(span.setSpanOnContext(ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    span.end();
    expect(await finished()).toEqual([]);
  });

  it("continues a job's trace from the metadata it was queued with", async () => {
    const { request, ctx } = underRequest();
    const metadata = telemetry.contextManager.getMetadata(ctx);
    const jobContext = telemetry.contextManager.fromMetadata(context.active(), metadata);
    telemetry.tracer.startSpan('process thumbnail-callbacks', { kind: SpanKind.CONSUMER }, jobContext).end();
    const [consumer] = await finished();
    expect(consumer?.name).toBe('process thumbnail-callbacks');
    expect(consumer?.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(consumer?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    request.end();
  });
});
