import type { TagList } from '@pawlink/contracts';
import type { ShortUrlTagsRepository } from '../repositories/short-url-tags.repository.js';

export interface ListTagsDeps {
  tags: Pick<ShortUrlTagsRepository, 'countsOf'>;
}

/** GET /tags (docs/api.md): the tags on the links a key created, each with how many carry it. */
export class ListTagsService {
  constructor(private readonly deps: ListTagsDeps) {}

  async list(ownerKeyId: number): Promise<TagList> {
    return { tags: await this.deps.tags.countsOf(ownerKeyId) };
  }
}
