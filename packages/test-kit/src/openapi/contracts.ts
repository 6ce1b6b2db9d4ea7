import type { OpenApiDocument } from '@pawlink/contracts/openapi';
import { ResponseValidator, type ReceivedResponse } from './response-validator.js';

const validators = new WeakMap<OpenApiDocument, ResponseValidator>();
const bound = new Map<string, ResponseValidator>();

/** One validator per document per process: its schemas compile once. */
function validatorFor(document: OpenApiDocument): ResponseValidator {
  let validator = validators.get(document);
  if (!validator) {
    validator = new ResponseValidator(document);
    validators.set(document, validator);
  }
  return validator;
}

/**
 * Declares that the server at `baseUrl` answers by `document`: from now on every response
 * `request()` receives from that origin is checked against it. Returns the undo.
 */
export function bindContract(baseUrl: string, document: OpenApiDocument): () => void {
  const origin = new URL(baseUrl).origin;
  bound.set(origin, validatorFor(document));
  return () => {
    if (bound.get(origin) === validatorFor(document)) bound.delete(origin);
  };
}

/** Thrown by `request()` when a response does not match its server's document. */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/** Throws a ContractViolation when `received` came from a bound server and does not match its document. */
export function assertMatchesContract(received: ReceivedResponse): void {
  const validator = bound.get(new URL(received.url).origin);
  if (!validator) return;
  const problems = validator.check(received);
  if (problems.length > 0) {
    throw new ContractViolation(
      `${received.method.toUpperCase()} ${received.url} answered ${received.status}, which the OpenAPI document does not allow:\n- ${problems.join('\n- ')}`,
    );
  }
}
