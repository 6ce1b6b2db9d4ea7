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

/** The field of a count: service, then the route label (`GET /:category`). */
export const usageField = (service: string, route: string): string => `${service} ${route}`;

/** The service and route of a field. */
export const splitUsageField = (field: string): { service: string; route: string } => {
  const space = field.indexOf(' ');
  return space < 0 ? { service: field, route: '' } : { service: field.slice(0, space), route: field.slice(space + 1) };
};
