import { isbot } from 'isbot';

/** Distinct user agents remembered; the set is emptied when full (user agents repeat a lot). */
const MEMO_SIZE = 2_000;
const memo = new Map<string, boolean>();

/**
 * Whether `userAgent` is a crawler, preview fetcher or script (isbot's list; no user agent is a
 * person). Memoised: the classifier costs microseconds per call, the redirect hot path cannot.
 */
export function isBotAgent(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent === '') return false;
  let bot = memo.get(userAgent);
  if (bot === undefined) {
    bot = isbot(userAgent);
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(userAgent, bot);
  }
  return bot;
}

/**
 * Whether a redirect counts as a visit (in `visits` and against `maxVisits`): a GET by something
 * that is not a bot. HEAD requests are link checkers, not people following a link.
 */
export const isCountedVisit = (method: string | undefined, userAgent: string | undefined): boolean =>
  method === 'GET' && !isBotAgent(userAgent);
