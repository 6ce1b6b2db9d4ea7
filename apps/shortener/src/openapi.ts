import { SHORTENER_SCHEMAS } from '@pawlink/contracts';
import { endpointsDocument } from '@pawlink/service-kit';
import { SHORTENER_ENDPOINTS } from './endpoints/shortener.endpoints.js';

/** The shortener's OpenAPI document (docs/api.md §2), generated from its endpoint declarations (docs/adr/0016). */
export const shortenerOpenApi = endpointsDocument({
  service: 'shortener',
  title: 'Pawlink shortener',
  description:
    'Short links: create them with an API key, follow them anywhere, edit or delete them with the management code given at creation.',
  tags: [
    { name: 'short urls', description: 'Create, follow, read, edit and delete short links.' },
    { name: 'console', description: 'The console for link owners at `/console/` (docs/console.md) and its sign-in.' },
  ],
  schemas: SHORTENER_SCHEMAS,
  endpoints: SHORTENER_ENDPOINTS,
});
