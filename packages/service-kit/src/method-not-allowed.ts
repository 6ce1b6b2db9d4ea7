import type { Express, Request } from 'express';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Methods the app's own routes accept for this path, read from Express's route table so
 * 405 `Allow` headers can never drift from the routes actually registered.
 */
export function allowedMethods(app: Express, req: Request): string[] {
  const stack = (app as unknown as { router: { stack: RouteLayer[] } }).router.stack;
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route) continue;
    let matches = false;
    try {
      matches = layer.match(req.path);
    } catch {
      matches = false;
    }
    if (!matches) continue;
    for (const [method, enabled] of Object.entries(layer.route.methods)) {
      if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  if (methods.size > 0) methods.add('OPTIONS');
  return [...methods].sort();
}
