import type { RequestHandler } from 'express';
import { ApiError } from './api-error.js';

/**
 * For a fixed path that also matches a parameterised route (`/create` and `/:code`, `/bulk` and
 * `/:category`): registered after the path's own routes, it answers every other method 405 1025
 * with `Allow` (OPTIONS: 204), so neither the parameterised route nor the shared 405 handler,
 * which would list that route's methods, takes the request.
 */
export function onlyMethods(...methods: string[]): RequestHandler {
  const allow = ['OPTIONS', ...methods].sort().join(', ');
  return (req, res) => {
    res.setHeader('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    throw new ApiError('METHOD_NOT_ALLOWED');
  };
}
