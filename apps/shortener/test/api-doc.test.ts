import { ShortUrlRecordSchema } from '@pawlink/contracts';
import { describeApiDocTable } from '@pawlink/test-kit/suites/api-doc';
import { SHORTENER_ENDPOINTS } from '../src/endpoints/shortener.endpoints.js';
import { shortenerOpenApi } from '../src/openapi.js';

describeApiDocTable({
  section: '## 2. Shortener ({shortener_url})',
  endpoints: SHORTENER_ENDPOINTS,
  document: shortenerOpenApi,
  record: { prefix: 'Record (`GET /:code.json`, PATCH, create): ', schema: ShortUrlRecordSchema },
});
