import { apiKeyOf } from '@pawlink/auth';
import { TagListSchema } from '@pawlink/contracts';
import { json, successWith } from '@pawlink/contracts/openapi';
import { rateLimit, requireKey } from '@pawlink/service-kit';
import { SHORT_URL_TAGS, shortenerEndpoint } from './shortener.deps.js';

/** GET /tags: the tags on the presenting key's links, by name, with their link counts. `tags` is a reserved code. */
export const listTagsEndpoint = shortenerEndpoint({
  operationId: 'listTags',
  summary: 'The tags of the short URLs created with this key',
  description:
    'Every tag on a link the presenting key created, by name, with how many of its links carry it (expired links included). Filter the links themselves with `GET /links?tag=`.',
  tags: SHORT_URL_TAGS,
  method: 'get',
  path: '/tags',
  refuseOtherMethods: true,
  guards: [requireKey('shortener'), rateLimit('shortener.read')],
  fields: {},
  responses: { 200: json("The key's tags.", successWith(TagListSchema)) },
  handler:
    ({ services }) =>
    async ({ res }) => {
      // requireKey ran first: a key is always there.
      const data = await services.listTags.list(apiKeyOf(res)!.id);
      return { status: 200, body: { success: true, data } };
    },
});
