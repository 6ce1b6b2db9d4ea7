import type { DataSourceSpec } from '@pawlink/service-kit';
import { CreateShortUrls1763790000000 } from './migrations/1763790000000-create-short-urls.js';
import { AddShortUrlsUrlChangedAt1795380000000 } from './migrations/1795380000000-add-short-urls-url-changed-at.js';
import { ShareOnlyFixedUrls1795900000000 } from './migrations/1795900000000-share-only-fixed-urls.js';
import { AddShortUrlsExpiry1796000000000 } from './migrations/1796000000000-add-short-urls-expiry.js';
import { CreateShortUrlVisits1796000001000 } from './migrations/1796000001000-create-short-url-visits.js';
import { AddShortUrlsOwner1796100000000 } from './migrations/1796100000000-add-short-urls-owner.js';
import { CreateShortUrlVisitBreakdown1796200000000 } from './migrations/1796200000000-create-short-url-visit-breakdown.js';
import { CreateShortUrlTags1796300000000 } from './migrations/1796300000000-create-short-url-tags.js';
import { AddShortUrlsPasswordAndRules1796300001000 } from './migrations/1796300001000-add-short-urls-password-and-rules.js';
import { CreateShortUrlImports1796390000000 } from './migrations/1796390000000-create-short-url-imports.js';
import { ShortUrlEntity } from './entities/short-url.entity.js';

/** The `<DB_PREFIX>shortener` schema. */
export const shortenerDatabase: DataSourceSpec = {
  name: 'shortener',
  entities: [ShortUrlEntity],
  migrations: [
    CreateShortUrls1763790000000,
    AddShortUrlsUrlChangedAt1795380000000,
    ShareOnlyFixedUrls1795900000000,
    AddShortUrlsExpiry1796000000000,
    CreateShortUrlVisits1796000001000,
    AddShortUrlsOwner1796100000000,
    CreateShortUrlVisitBreakdown1796200000000,
    CreateShortUrlTags1796300000000,
    AddShortUrlsPasswordAndRules1796300001000,
    CreateShortUrlImports1796390000000,
  ],
};
