import type { ShortUrlWithVisits } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { ShortUrl } from '../db/entities/short-url.entity.js';
import type { PreviewCacheRepository } from '../repositories/preview-cache.repository.js';
import type { RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { ShortUrlChanges, ShortUrlRepository } from '../repositories/short-url.repository.js';
import type { ShortUrlTagsRepository } from '../repositories/short-url-tags.repository.js';
import { hashLinkPassword } from '../domain/link-password.rules.js';
import type { RedirectRule } from '../domain/redirect-rules.rules.js';
import { authorisedEntry } from '../domain/management-code.rules.js';
import { toRecord } from '../domain/short-url-record.rules.js';
import type { VisitStatsService } from './visit-stats.service.js';

/** An edit: at least one field must differ from the entry (else 1080); null clears expiresAt / maxVisits. */
export interface UpdateShortUrl {
  managementCode: string;
  url?: string;
  credit?: string;
  expiresAt?: Date | null;
  maxVisits?: number | null;
  /** The whole new list (checked, lower-cased, sorted); `[]` removes every tag. */
  tags?: string[];
  /** A new password (always a change: it is never compared with the old one); null removes it. */
  password?: string | null;
  /** The whole new list of rules; [] removes them. */
  rules?: RedirectRule[];
}

export interface UpdateShortUrlDeps {
  repository: Pick<ShortUrlRepository, 'findByCode' | 'update'>;
  tags: Pick<ShortUrlTagsRepository, 'tagsOf'>;
  /** Told of the edit, which it announces to every instance. */
  cache: Pick<RedirectCacheRepository, 'invalidate'>;
  /** The rows behind previews, in process: the edited one is dropped. */
  previews: Pick<PreviewCacheRepository, 'evict'>;
  visitStats: Pick<VisitStatsService, 'total'>;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
  clock: () => Date;
}

/** PATCH /:code (docs/api.md). */
export class UpdateShortUrlService {
  constructor(private readonly deps: UpdateShortUrlDeps) {}

  /** The changed record, with its visits like the JSON form. */
  async update(code: string, input: UpdateShortUrl): Promise<ShortUrlWithVisits> {
    const entry = authorisedEntry(await this.deps.repository.findByCode(code), input.managementCode);
    const { url, credit, expiresAt, maxVisits } = input;
    const changes: Omit<ShortUrlChanges, 'modifiedAt'> = {};
    if (url !== undefined && url !== entry.url) changes.url = url;
    if (credit !== undefined && credit !== entry.credit) changes.credit = credit;
    if (expiresAt !== undefined && expiresAt?.getTime() !== entry.expiresAt?.getTime()) changes.expiresAt = expiresAt;
    if (maxVisits !== undefined && maxVisits !== entry.maxVisits)
      Object.assign(changes, await this.visitLimitChange(entry, maxVisits));
    if (input.password !== undefined && (input.password !== null || entry.passwordHash !== null))
      changes.passwordHash = input.password === null ? null : await hashLinkPassword(input.password);
    if (input.rules !== undefined) {
      const rules = input.rules.length === 0 ? null : JSON.stringify(input.rules);
      if (rules !== entry.rules) changes.rules = rules;
    }
    const oldTags = await this.deps.tags.tagsOf(entry.pos);
    const newTags = input.tags !== undefined && input.tags.join() !== oldTags.join() ? input.tags : undefined;
    if (Object.keys(changes).length === 0 && newTags === undefined) throw new ApiError('NO_CHANGES');

    const modifiedAt = this.deps.clock();
    // modifiedAt follows any edit; urlChangedAt only a new destination (the preview warns about those).
    const updated = await this.deps.repository.update(
      entry.pos,
      changes.url === undefined ? { ...changes, modifiedAt } : { ...changes, modifiedAt, urlChangedAt: modifiedAt },
      newTags === undefined ? undefined : { ownerKeyId: entry.ownerKeyId, tags: newTags },
    );
    if (!updated) throw new ApiError('SHORT_URL_NOT_FOUND');
    this.deps.previews.evict(entry.code);
    const redirectChanged =
      changes.url !== undefined ||
      'expiresAt' in changes ||
      'maxVisits' in changes ||
      'passwordHash' in changes ||
      'rules' in changes;
    await this.deps.cache.invalidate(entry.code, redirectChanged ? 'edited' : 'credited');
    return {
      ...toRecord({ ...entry, ...changes, modifiedAt }, this.deps.baseUrl, newTags ?? oldTags),
      visits: await this.deps.visitStats.total(entry.code, entry.pos),
    };
  }

  /**
   * A new `maxVisits`. Set on an entry that had none, it counts the visits the entry already has
   * (its `visits` as clients see them now); changed, it keeps the count; cleared, the entry is
   * unlimited (set again later, it starts from `visits` again).
   */
  private async visitLimitChange(
    entry: ShortUrl,
    maxVisits: number | null,
  ): Promise<Pick<ShortUrlChanges, 'maxVisits' | 'maxVisitsUsed' | 'maxVisitsReachedAt'>> {
    if (maxVisits === null) return { maxVisits, maxVisitsReachedAt: null };
    const used =
      entry.maxVisits === null ? await this.deps.visitStats.total(entry.code, entry.pos) : entry.maxVisitsUsed;
    const reachedAt =
      used < maxVisits ? null : ((entry.maxVisits !== null ? entry.maxVisitsReachedAt : null) ?? this.deps.clock());
    return { maxVisits, maxVisitsUsed: used, maxVisitsReachedAt: reachedAt };
  }
}
