import { Errors, type ErrorBody, type ErrorDefinition, type ErrorName } from '@pawlink/contracts';

export interface ApiErrorOptions {
  message?: string;
  extra?: Record<string, unknown>;
  info?: Record<string, unknown>;
  status?: string;
  /** Sent with the failure; a code the registry gives a `Retry-After` has it unless this names one. */
  headers?: Record<string, string>;
  /** Overrides the registry's HTTP status (only where docs/api.md allows it). */
  httpStatus?: number;
  /** The underlying failure, for code that needs to look closer (never rendered). */
  cause?: unknown;
}

/** A failure with a registry code; the error renderer turns it into `{success:false, error, code}`. */
export class ApiError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly extra: Record<string, unknown> | undefined;
  readonly info: Record<string, unknown> | undefined;
  readonly statusText: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly errorName: ErrorName,
    options: ApiErrorOptions = {},
  ) {
    const definition: ErrorDefinition = Errors[errorName];
    super(options.message ?? definition.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = definition.code;
    this.httpStatus = options.httpStatus ?? definition.status;
    this.extra = options.extra;
    this.info = options.info;
    this.statusText = options.status;
    const retryAfter: Record<string, string> =
      definition.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(definition.retryAfterSeconds) };
    this.headers = { ...retryAfter, ...options.headers };
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { success: false, error: this.message, code: this.code };
    if (this.statusText !== undefined) body.status = this.statusText;
    if (this.extra !== undefined) body.extra = this.extra;
    if (this.info !== undefined) body.info = this.info;
    return body;
  }
}

/** Duck-typed so an error thrown by another copy of this package still renders. */
export const isApiError = (value: unknown): value is ApiError =>
  value instanceof ApiError ||
  (value instanceof Error && value.name === 'ApiError' && typeof (value as ApiError).toBody === 'function');
