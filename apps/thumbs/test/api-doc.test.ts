import { describeApiDocTable } from '@pawlink/test-kit/suites/api-doc';
import { THUMBNAIL_ENDPOINTS } from '../src/endpoints/thumbs.endpoints.js';
import { thumbsOpenApi } from '../src/openapi.js';

// The table of the bot API; the operator pages have their own table (bull-board's row is no endpoint of ours).
describeApiDocTable({
  section: '## 4. Thumbnails ({thumbs_url})',
  endpoints: THUMBNAIL_ENDPOINTS,
  document: thumbsOpenApi,
});
