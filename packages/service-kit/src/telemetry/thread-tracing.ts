import { NodeSDK } from '@opentelemetry/sdk-node';
import { installOtelHooks } from './otel-hooks.js';

/**
 * Tracing in a worker thread (the thumbnail processor's): its own SDK, as the thread has its own
 * modules, and no instrumentation (the thread's modules are loaded before it starts): the job and
 * its steps are spans the code starts (`inSpan`), under the context the job carries.
 */
export function startThreadTracing(service: string): void {
  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: `pawlink-${service}` }),
    instrumentations: [],
  });
  sdk.start();
  installOtelHooks(sdk);
}
