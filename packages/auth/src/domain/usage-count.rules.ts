/** Requests of one key on one UTC day to one route (`<service> <route>`, e.g. `images GET /:category`). */
export interface UsageCount {
  keyId: number;
  day: string;
  /** `<service> <METHOD> <route pattern>`. */
  field: string;
  count: number;
}

/** Longest route label kept (the MySQL column holds this much). */
export const MAX_ROUTE_LABEL = 150;

/** Labels that earlier versions recorded, as those routes are named now. */
const RENAMED_ROUTES: Readonly<Record<string, string>> = {
  // images' slashed category form was registered as `/*splat`
  'GET /*splat': 'GET /:category',
  // thumbs' check route named its segments for their position
  'GET /check/:first/:second': 'GET /check/:md5/:type',
};

/**
 * A route label as docs/api.md names the route (`GET /:category`): a parameter spanning segments
 * (Express's `/*category`, the slashed form) reads like any other, and labels recorded under an
 * older name read as the route is named now, so one route is one line however it was counted.
 */
export function publicRouteLabel(route: string): string {
  return (RENAMED_ROUTES[route] ?? route).replace(/\/\*([A-Za-z_$][\w$]*)/g, '/:$1');
}

/** The field of a count: service, then the route label (`GET /:category`). */
export const usageField = (service: string, route: string): string => `${service} ${route}`;

/** The service and route of a field. */
export const splitUsageField = (field: string): { service: string; route: string } => {
  const space = field.indexOf(' ');
  return space < 0 ? { service: field, route: '' } : { service: field.slice(0, space), route: field.slice(space + 1) };
};
