/** A failure the API answered (`{success:false, error, code}`), or a network failure (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The service's base: the console lives at `<base>/console/`. */
export const apiBase = new URL('../', window.location.href);
/** The console's own base (`<base>/console/`). */
export const consoleBase = new URL('./', window.location.href);

/** Sent with every request: the server reads the session cookie only for requests that carry it. */
const CONSOLE_HEADER = { 'X-Pawlink-Console': '1' };

async function send<T>(url: URL, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', ...init });
  } catch {
    throw new ApiFailure(0, 0, 'The service could not be reached. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ApiFailure(res.status, 0, `The service answered ${res.status} without a JSON body.`);
  }
  const answer = body as { success?: boolean; code?: number; error?: string; extra?: Record<string, unknown> };
  if (!res.ok || answer.success === false)
    throw new ApiFailure(res.status, answer.code ?? 0, answer.error ?? `HTTP ${res.status}`, answer.extra);
  return body as T;
}

/** A request to the public API (`path` relative to the service's base), as the signed-in key. */
export function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...CONSOLE_HEADER };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return send<T>(new URL(path, apiBase), {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** Signs in: the key goes once, as any client sends it; the answer sets the session cookie. */
export function signIn(key: string): Promise<unknown> {
  return send(new URL('session', consoleBase), {
    method: 'POST',
    headers: { ...CONSOLE_HEADER, Authorization: key },
  });
}

/** Ends the session and clears its cookie. */
export function signOut(): Promise<unknown> {
  return send(new URL('session', consoleBase), { method: 'DELETE', headers: CONSOLE_HEADER });
}

/** The failures that mean "no usable key": the console shows the sign-in form. */
export const needsSignIn = (error: unknown): boolean =>
  error instanceof ApiFailure && [1010, 1011, 1012, 1013, 1022].includes(error.code);
