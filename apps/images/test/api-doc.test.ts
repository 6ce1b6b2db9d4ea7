import { describeApiDocTable } from '@pawlink/test-kit/suites/api-doc';
import { IMAGES_ENDPOINTS } from '../src/endpoints/images.endpoints.js';
import { imagesOpenApi } from '../src/openapi.js';

describeApiDocTable({
  section: '## 3. Images ({images_url})',
  endpoints: IMAGES_ENDPOINTS,
  document: imagesOpenApi,
});
