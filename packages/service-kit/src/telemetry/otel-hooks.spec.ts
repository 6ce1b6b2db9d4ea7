import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { installOtelHooks } from './otel-hooks.js';
import { inSpan, telemetryHooks, type TelemetryHooks } from './telemetry-hooks.js';

/*
 * The hooks the code calls with traces on: a job's span continues the context its metadata
 * carries, a failed step is an error span that keeps its message out, a check links to its job.
 */
const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor({ exporter });
const sdk = new NodeSDK({ spanProcessors: [processor], instrumentations: [] });
sdk.start();
installOtelHooks(sdk);
const hooks = telemetryHooks() as TelemetryHooks;

afterAll(() => sdk.shutdown());
beforeEach(() => exporter.reset());

async function finished() {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
}

/** A queued job's metadata, as BullMQ's telemetry writes it, and the span that queued it. */
function queuedJob() {
  const producer = trace.getTracer('test').startSpan('add thumbs.generate-thumbnail');
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, producer), carrier);
  producer.end();
  return { producer, metadata: JSON.stringify(carrier) };
}

describe('inSpan', () => {
  it('runs a job in a consumer span under the context its metadata carries, its steps under it', async () => {
    const { producer, metadata } = queuedJob();
    const result = await inSpan('process thumbs', () => inSpan('download', () => Promise.resolve(42)), {
      kind: 'consumer',
      parent: metadata,
      attributes: { 'messaging.message.id': 'abc.gif' },
    });
    expect(result).toBe(42);
    const spans = await finished();
    const job = spans.find((s) => s.name === 'process thumbs')!;
    const step = spans.find((s) => s.name === 'download')!;
    expect(job.kind).toBe(SpanKind.CONSUMER);
    expect(job.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    expect(job.attributes['messaging.message.id']).toBe('abc.gif');
    expect(step.parentSpanContext?.spanId).toBe(job.spanContext().spanId);
  });

  it("marks a failed step as an error with its error's class, never its message, and rethrows", async () => {
    const { metadata } = queuedJob();
    const failing = inSpan('download', () => Promise.reject(new TypeError('https://board.test/secret?x=1 refused')), {
      parent: metadata,
    });
    await expect(failing).rejects.toThrow('refused');
    const step = (await finished()).find((s) => s.name === 'download')!;
    expect(step.status.code).toBe(SpanStatusCode.ERROR);
    expect(step.status.message).toBeUndefined();
    expect(step.attributes['error.type']).toBe('TypeError');
    expect(JSON.stringify(step.attributes) + JSON.stringify(step.events)).not.toContain('board.test');
  });

  it('takes metadata it cannot read as none', async () => {
    await hooks.inSpan('process thumbs', () => Promise.resolve(), { parent: 'not json' });
    const [job] = await finished();
    expect(job?.parentSpanContext).toBeUndefined();
  });
});

describe('linkToQueuedJob', () => {
  it("links the active span to the span that queued the job, and does nothing without the job's metadata", async () => {
    const { producer, metadata } = queuedJob();
    await inSpan('GET /check/:md5/:type', () => {
      hooks.linkToQueuedJob(metadata);
      hooks.linkToQueuedJob(undefined);
      hooks.linkToQueuedJob('{}');
      hooks.linkToQueuedJob('not json');
      return Promise.resolve();
    });
    const check = (await finished()).find((s) => s.name === 'GET /check/:md5/:type')!;
    expect(check.links.map((link) => link.context.spanId)).toEqual([producer.spanContext().spanId]);
  });
});
