import { FALLBACK, type HeaderObject, type OpenApiDocument, type ResponseObject } from '@pawlink/contracts/openapi';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { PathMatcher } from './path-matcher.js';

// ajv-formats is CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

/** A response as a test received it. */
export interface ReceivedResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
}

const pointerPart = (part: string): string => part.replace(/~/g, '~0').replace(/\//g, '~1');

let documents = 0;

/**
 * Holds responses to an OpenAPI document: the operation (method + path template) must document the
 * status; the media type must be one the response lists, a JSON body must validate against its
 * schema (ajv, JSON Schema 2020-12), required headers must be there and every documented header
 * present must fit its schema. Requests no operation takes must get the document's fallback
 * answers (404 1024, 405 1025 with the right `Allow`, OPTIONS 204).
 */
export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly id: string;
  private readonly matcher: PathMatcher;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.id = `urn:pawlink:openapi:${documents++}`;
    this.ajv.addSchema({ ...(document as unknown as Record<string, unknown>), $id: this.id });
    this.matcher = new PathMatcher(document);
  }

  /** What is wrong with the response; empty when it matches the document. */
  check(received: ReceivedResponse): string[] {
    if (this.isProtocolRefusal(received)) return [];
    const { pathname } = new URL(received.url);
    const match = this.matcher.match(received.method, pathname);
    const method = received.method.toUpperCase();
    if (match.kind === 'unknown-route') {
      if (received.status !== 404)
        return [`no documented path matches ${pathname}, so the answer must be 404 1024, not ${received.status}`];
      return this.checkResponse(received, this.fallback('UnknownRoute'), '/components/responses/UnknownRoute');
    }
    if (match.kind === 'method-not-allowed') {
      const expected = method === 'OPTIONS' ? 204 : 405;
      if (received.status !== expected)
        return [
          `${match.template} has no ${method} operation, so the answer must be ${expected}, not ${received.status}`,
        ];
      const problems = this.checkResponse(
        received,
        this.fallback(method === 'OPTIONS' ? 'Options' : 'MethodNotAllowed'),
        `/components/responses/${method === 'OPTIONS' ? 'Options' : 'MethodNotAllowed'}`,
      );
      const allow = (received.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .sort();
      if (allow.join(', ') !== match.allow.join(', '))
        problems.push(
          `Allow is "${allow.join(', ')}" but the document gives ${match.template} "${match.allow.join(', ')}"`,
        );
      return problems;
    }
    const response = match.operation.responses[String(received.status)] as ResponseObject | undefined;
    const where = `${method} ${match.template}`;
    if (!response)
      return [
        `${where} does not document status ${received.status} (documented: ${Object.keys(match.operation.responses).join(', ')})`,
      ];
    const operationMethod =
      match.operation === this.document.paths[match.template]?.[match.method as 'get'] ? match.method : 'get';
    const pointer = `/paths/${pointerPart(match.template)}/${operationMethod}/responses/${received.status}`;
    return this.checkResponse(received, response, pointer).map((problem) => `${where} ${received.status}: ${problem}`);
  }

  /**
   * A refusal the document's fallback names for any path (`protocol`: a late, oversized or
   * unparsable request), matching it exactly; anything else is held to the operation.
   */
  private isProtocolRefusal(received: ReceivedResponse): boolean {
    const protocol =
      (this.document[FALLBACK] as { protocol?: Record<string, { $ref: string }> } | undefined)?.protocol ?? {};
    const ref = protocol[String(received.status)]?.$ref;
    if (!ref) return false;
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    return this.checkResponse(received, this.fallback(name), `/components/responses/${name}`).length === 0;
  }

  private fallback(name: string): ResponseObject {
    const response = this.document.components.responses?.[name];
    if (!response) throw new Error(`the document has no components.responses.${name}`);
    return response;
  }

  private checkResponse(received: ReceivedResponse, response: ResponseObject, pointer: string): string[] {
    const problems: string[] = [];
    for (const [name, definition] of Object.entries(response.headers ?? {})) {
      const header = definition as HeaderObject;
      const value = received.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is required`);
        continue;
      }
      const validate = this.validator(`${pointer}/headers/${pointerPart(name)}/schema`);
      const actual: unknown = value;
      if (!validate(actual)) problems.push(`header ${name}: "${value}" ${this.ajv.errorsText(validate.errors)}`);
    }
    const content = response.content ?? {};
    const types = Object.keys(content);
    const noBody = received.method.toUpperCase() === 'HEAD' || received.body.length === 0;
    if (types.length === 0) {
      if (received.body.length > 0) problems.push(`no body is documented, but ${received.body.length} bytes came`);
      return problems;
    }
    const contentType = (received.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const type = types.find(
      (documented) =>
        documented === contentType || (documented.endsWith('/*') && contentType.startsWith(documented.slice(0, -1))),
    );
    if (!type) {
      if (!(noBody && contentType === ''))
        problems.push(`Content-Type "${contentType}" is not documented (documented: ${types.join(', ')})`);
      return problems;
    }
    if (noBody || !type.endsWith('json')) return problems;
    let body: unknown;
    try {
      body = JSON.parse(received.body.toString('utf8'));
    } catch {
      return [...problems, 'the body is not JSON'];
    }
    const validate = this.validator(`${pointer}/content/${pointerPart(type)}/schema`);
    if (!validate(body))
      problems.push(
        `body ${this.ajv.errorsText(validate.errors, { separator: '; ' })}: ${received.body.toString('utf8').slice(0, 300)}`,
      );
    return problems;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${this.id}#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }
}
