import { ApiError } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';

const ALLOW = 'OPTIONS, POST';

/**
 * Any method but POST on `/create` and `/delete`: 405 1025 with `Allow` (OPTIONS: 204 with `Allow`,
 * as the shared handler answers it). Registered right after the POST routes, because the `/:code`
 * routes would otherwise take these paths — GET as an unknown code's redirect, PATCH and DELETE as
 * edits of a code — and the shared 405 handler would list their methods in `Allow`.
 */
export const postOnlyHandler: RequestHandler = (req, res) => {
  res.setHeader('Allow', ALLOW);
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  throw new ApiError('METHOD_NOT_ALLOWED');
};
