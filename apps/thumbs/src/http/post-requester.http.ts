import { apiKeyOf } from '@pawlink/auth';
import type { Request, Response } from 'express';
import type { PostRequester } from '../repositories/post.repository.js';

/**
 * Who this request resolves a post id for: its API key and its client IP (the address Express
 * trusts under TRUST_PROXY), each held to a fair share of the board budget.
 */
export function postRequesterOf(req: Request, res: Response): PostRequester {
  return { apiKeyId: apiKeyOf(res)?.id, ip: req.ip ?? req.socket.remoteAddress };
}
