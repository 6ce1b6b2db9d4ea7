/** The parts of a request (Express's or the bare `IncomingMessage` it extends) a route label reads. */
interface RoutedRequest {
  baseUrl?: string;
  route?: { path?: unknown };
}

const readablePaths = new Map<string, string>();

/**
 * A route's path as docs/api.md writes it: Express's escapes dropped (`/:code\+` is `/:code+`),
 * and a parameter spanning segments read as any other (`/*category` is `/:category`), as key usage
 * labels routes.
 */
function readablePath(path: string): string {
  let readable = readablePaths.get(path);
  if (readable === undefined) {
    readable = path.replace(/\\(.)/g, '$1').replace(/\/\*([A-Za-z_$][\w$]*)/g, '/:$1');
    readablePaths.set(path, readable);
  }
  return readable;
}

const ANSWERED_ROUTE = Symbol('pawlink.route');

/** Names the route of a request answered before Express (a fast lane), as Express would have. */
export function labelRoute(req: object, route: string): void {
  (req as { [ANSWERED_ROUTE]?: string })[ANSWERED_ROUTE] = route;
}

/** The route pattern the request matched (`/:code`), or undefined when it matched none. */
export function routePattern(req: object): string | undefined {
  const answered = (req as { [ANSWERED_ROUTE]?: string })[ANSWERED_ROUTE];
  if (answered !== undefined) return answered;
  const { route, baseUrl } = req as RoutedRequest;
  return typeof route?.path === 'string' ? `${baseUrl ?? ''}${readablePath(route.path)}` : undefined;
}

/** The metrics' route label: the pattern, or `(unmatched)`. */
export function routeLabel(req: object): string {
  return routePattern(req) ?? '(unmatched)';
}
