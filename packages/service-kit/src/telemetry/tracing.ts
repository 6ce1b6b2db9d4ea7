import { ServerResponse, type IncomingMessage } from 'node:http';
import { trace, type Span } from '@opentelemetry/api';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { register as registerEsmHook } from 'import-in-the-middle/register-hooks.mjs';
import { routePattern } from '../http/route-label.js';
import { installOtelHooks } from './otel-hooks.js';
import { outgoingUrlWithoutQuery, REDACTED_SERVER_QUERY } from './recorded-urls.js';
import { parentRequiredTracerProvider } from './parent-required.js';

/** The attribute naming the API key a request was let in with: its id, never the key. */
export const KEY_ID_ATTRIBUTE = 'pawlink.key.id';

/**
 * A finished server request's span: its route pattern (as the metrics label it) and the id of
 * the key the guards accepted (`res.locals.apiKey`, set by @pawlink/auth).
 */
function tagServerSpan(span: Span, request: unknown, response: unknown): void {
  if (!(response instanceof ServerResponse)) return; // a client span: its response is an IncomingMessage
  const route = routePattern(request as IncomingMessage);
  if (route !== undefined) {
    span.setAttribute('http.route', route);
    span.updateName(`${(request as IncomingMessage).method ?? 'GET'} ${route}`);
  }
  const keyId = (response as { locals?: { apiKey?: { id?: unknown } } }).locals?.apiKey?.id;
  if (typeof keyId === 'number') span.setAttribute(KEY_ID_ATTRIBUTE, keyId);
}

/**
 * Readiness probes and metrics scrapes, every few seconds from an orchestrator or Prometheus: a
 * trace of each would bury the requests worth following.
 */
const UNTRACED_PATH = /^\/(?:ready|metrics)(?:[?#]|$)/;

/** Whether an incoming request is a probe or a scrape (UNTRACED_PATH), which starts no trace. */
export const isProbeOrScrape = (request: IncomingMessage): boolean => UNTRACED_PATH.test(request.url ?? '');

/**
 * Starts the OpenTelemetry SDK, configured by the standard OTEL_* variables (exporter, endpoint,
 * protocol, sampler, resource), with the instrumentations for http, express, ioredis and mysql2.
 * Nothing records a header, a body or a value: a MySQL span has the statement with its values
 * masked, an outgoing request's span its URL without the query, an incoming one's query without
 * `callbackURL`'s value, a Redis span names its command only (arguments can be keys' data,
 * AUTH's password or a script's values). A trace starts at a request (not a probe of `/ready` nor
 * a scrape of `/metrics`) or a job (see otel-hooks.ts): a Redis command, a statement or an
 * outgoing request with no span around it (background work) records nothing.
 */
export function startTracing(service: string): void {
  // ESM: express, ioredis and mysql2, imported after this, go through the instrumentations' hook
  // (in-thread, module.registerHooks). Only they: the hook wraps what it takes in, and wrapping
  // every module costs and can break re-exports (`export *` of a name two modules export).
  registerEsmHook({ include: ['express', 'ioredis', 'mysql2'] });
  // The SQL alone: without maskStatement the instrumentation formats the values into it.
  const mysql2 = new MySQL2Instrumentation({ maskStatement: true });
  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: `pawlink-${service}` }),
    instrumentations: [
      new HttpInstrumentation({
        applyCustomAttributesOnSpan: tagServerSpan,
        requireParentforOutgoingSpans: true,
        ignoreIncomingRequestHook: isProbeOrScrape,
        redactedQueryParamsServer: REDACTED_SERVER_QUERY,
        startOutgoingSpanHook: (options) => ({ 'url.full': outgoingUrlWithoutQuery(options) }),
      }),
      // Routers and handlers, not each middleware: the request span already covers those.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      new IORedisInstrumentation({ dbStatementSerializer: (command) => command, requireParentSpan: true }),
      mysql2,
    ],
  });
  sdk.start();
  // mysql2's instrumentation has no requireParentSpan: its tracer gets the rule instead.
  mysql2.setTracerProvider(parentRequiredTracerProvider(trace.getTracerProvider()));
  installOtelHooks(sdk);
}
