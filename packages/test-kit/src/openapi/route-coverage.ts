import {
  HTTP_METHODS,
  MOUNTED,
  MULTI_SEGMENT,
  RATE_LIMIT_BUCKET,
  type OpenApiDocument,
  type OperationObject,
} from '@pawlink/contracts/openapi';
import type { Express, RequestHandler } from 'express';

/** A route an app serves: method and path in OpenAPI template form, with what guards it. */
export interface ServedRoute {
  method: string;
  /** `/{code}.json`; a multi-segment variable (`/*splat`) is written `/{splat*}`. */
  path: string;
  /** `required`/`optional` when a key guard runs, else `none`; undefined when not known. */
  key?: 'required' | 'optional' | 'none';
  /** The rate-limit bucket, when a limit guard runs. */
  rateLimit?: string;
}

/** The method a sub-application mounted with `app.use(prefix, …)` is listed under: it takes every method under its prefix. */
export const MOUNT = 'MOUNT';

interface RouteLayer {
  /** The path given to `app.use` / `app.route` (router 2). */
  rawPath?: unknown;
  route?: {
    path: unknown;
    methods: Record<string, boolean | undefined>;
    stack: Array<{ handle: RequestHandler; method?: string }>;
  };
}

/** What a recording guard handler stands for. */
type GuardMark = { key: 'required' | 'optional' } | { rateLimit: string };

const marks = new WeakMap<RequestHandler, GuardMark>();
const pass: () => RequestHandler = () => (_req, _res, next) => next();

/**
 * Stand-ins for `@pawlink/auth`'s AccessGuards that let every request through and remember what
 * each handler they return stands for, so `expressRoutes` can say which routes need a key and
 * which bucket limits them.
 */
export function recordingGuards() {
  const mark = (handler: RequestHandler, what: GuardMark): RequestHandler => {
    marks.set(handler, what);
    return handler;
  };
  return {
    requireKey: (): RequestHandler => mark(pass(), { key: 'required' }),
    optionalKey: (): RequestHandler => mark(pass(), { key: 'optional' }),
    rateLimit: (bucket: string): RequestHandler => mark(pass(), { rateLimit: bucket }),
    /** The key check handlers call themselves (thumbs' admin pages); never asked while only the route table is read. */
    verifyKey: (): Promise<never> => Promise.reject(new Error('recordingGuards only records the route table')),
    /** `GET /status`'s reading of the limits; never asked while only the route table is read. */
    limits: (): Promise<Record<string, never>> => Promise.resolve({}),
  };
}

/** Express 5 route path → OpenAPI template: `:code` → `{code}`, `*splat` → `{splat*}`, `\+` → `+`. */
export function toTemplate(expressPath: string): string {
  return expressPath
    .replace(/\\(.)/g, '$1')
    .replace(/\*([A-Za-z_$][\w$]*)/g, '{$1*}')
    .replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');
}

/**
 * The routes registered on an app (its router's route layers), one per method. Routes that only
 * take `all` methods (onlyMethods' 405s) are the fallback, not operations, and are left out.
 * Middleware mounted under a path (`app.use('/admin/queues', …)`: a sub-application answering every
 * path and method below it) is listed once per prefix with the method `MOUNT`.
 */
export function expressRoutes(app: Express): ServedRoute[] {
  const stack = (app as unknown as { router: { stack: RouteLayer[] } }).router.stack;
  const routes: ServedRoute[] = [];
  for (const layer of stack) {
    const route = layer.route;
    if (!route) {
      if (typeof layer.rawPath === 'string' && layer.rawPath !== '/')
        routes.push({ method: MOUNT, path: toTemplate(layer.rawPath) });
      else if (layer.rawPath !== undefined && typeof layer.rawPath !== 'string')
        throw new Error('a mount path that is not a string (a RegExp or a list) cannot be checked');
      continue;
    }
    if (typeof route.path !== 'string')
      throw new Error(`a route path that is not a string cannot be checked: ${String(route.path)}`);
    const guards = route.stack
      .map((entry) => marks.get(entry.handle))
      .filter((mark): mark is GuardMark => mark !== undefined);
    const key = guards.find((mark): mark is { key: 'required' | 'optional' } => 'key' in mark)?.key ?? 'none';
    const rateLimit = guards.find((mark): mark is { rateLimit: string } => 'rateLimit' in mark)?.rateLimit;
    const methods = Object.entries(route.methods)
      .filter(([method, enabled]) => enabled && method !== '_all')
      .map(([method]) => method);
    // `app.all()` registers every method Node knows (M-SEARCH, PURGE, …): such a route is onlyMethods' 405 fallback.
    if (route.methods._all || methods.length > HTTP_METHODS.length) continue;
    for (const method of methods) {
      routes.push({
        method: method.toUpperCase(),
        path: toTemplate(route.path),
        key,
        ...(rateLimit ? { rateLimit } : {}),
      });
    }
  }
  return routes;
}

/** Variable names do not matter to routing: `/{code}` and `/{id}` are the same path. */
const shape = (template: string): string => template.replace(/\{[^}]*?(\*?)\}/g, '{$1}');

function documentedRoutes(document: OpenApiDocument): Array<ServedRoute & { operation: OperationObject }> {
  const routes: Array<ServedRoute & { operation: OperationObject }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    // A mounted sub-application's paths stand for the mount (once per prefix); its own routes are its own.
    const mounted = item[MOUNTED];
    if (typeof mounted === 'string') {
      if (path !== mounted && !path.startsWith(`${mounted}/`))
        throw new Error(`${path} is marked as mounted at ${mounted} but is not under it`);
      if (!routes.some((route) => route.method === MOUNT && route.path === mounted))
        routes.push({ method: MOUNT, path: mounted, key: 'none', operation: {} as OperationObject });
      continue;
    }
    const multi = item[MULTI_SEGMENT];
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const security = operation.security ?? [];
      const key =
        security.length === 0
          ? 'none'
          : security.some((requirement) => Object.keys(requirement).length === 0)
            ? 'optional'
            : 'required';
      const bucket = operation[RATE_LIMIT_BUCKET] as string | undefined;
      const base = { method: method.toUpperCase(), key, operation, ...(bucket ? { rateLimit: bucket } : {}) } as const;
      routes.push({ ...base, path });
      // `/{category}` with a multi-segment `category` is also served as `/{category*}` (the slashed form).
      if (typeof multi === 'string') routes.push({ ...base, path: path.replace(`{${multi}}`, `{${multi}*}`) });
    }
  }
  return routes;
}

export interface RouteDrift {
  /** Routes the app serves that the document does not describe. */
  undocumented: string[];
  /** Operations of the document no route serves. */
  unserved: string[];
  /** Served and documented, but guarded differently (key, rate-limit bucket). */
  guards: string[];
}

/**
 * Compares what an app serves with its document, both ways. `extra` are routes answered outside
 * Express (the shortener's fast redirect) — they must be documented too.
 */
export function routeDrift(
  document: OpenApiDocument,
  served: readonly ServedRoute[],
  extra: readonly ServedRoute[] = [],
): RouteDrift {
  const documented = documentedRoutes(document);
  const id = (route: ServedRoute): string => `${route.method} ${shape(route.path)}`;
  const documentedIds = new Map(documented.map((route) => [id(route), route]));
  const all = [...served, ...extra];
  const servedIds = new Set(all.map(id));
  const guards: string[] = [];
  for (const route of served) {
    const doc = documentedIds.get(id(route));
    if (!doc || route.key === undefined) continue;
    if (doc.key !== route.key)
      guards.push(`${route.method} ${route.path}: key ${route.key} in the app, ${doc.key} in the document`);
    if (doc.rateLimit !== route.rateLimit)
      guards.push(
        `${route.method} ${route.path}: rate limit ${route.rateLimit ?? 'none'} in the app, ${doc.rateLimit ?? 'none'} in the document`,
      );
  }
  return {
    undocumented: [
      ...new Set(all.filter((route) => !documentedIds.has(id(route))).map((route) => `${route.method} ${route.path}`)),
    ],
    unserved: [
      ...new Set(
        documented.filter((route) => !servedIds.has(id(route))).map((route) => `${route.method} ${route.path}`),
      ),
    ],
    guards,
  };
}
