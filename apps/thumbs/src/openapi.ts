import { ThumbnailCallbackEventSchema, ThumbnailDoneSchema, ThumbnailProcessingSchema } from '@pawlink/contracts';
import { endpointsDocument } from '@pawlink/service-kit';
import { legacyCheckPaths } from './endpoints/check-thumbnail.endpoint.js';
import { ADMIN_ENDPOINTS, THUMBNAIL_ENDPOINTS } from './endpoints/thumbs.endpoints.js';
import { queueDashboardPaths } from './routes/queue-dashboard.routes.js';

/**
 * The thumbnail service's OpenAPI document (docs/api.md §4), generated from its endpoint
 * declarations (docs/adr/0016). Besides them: the check's four deprecated paths of the original's
 * order (made from the check's declaration) and bull-board's dashboard (internal, never served).
 */
export const thumbsOpenApi = endpointsDocument({
  service: 'thumbs',
  title: 'Pawlink thumbnails',
  description:
    'Animated GIF, WebP and MP4 (H.264) and still PNG thumbnails of image-board posts, made by the worker: ask with PUT, poll the check URL.',
  tags: [
    { name: 'thumbnails', description: 'Request thumbnails and follow their jobs.' },
    {
      name: 'admin',
      description:
        'Operator pages: the login of the queue dashboard (bull-board, at `/admin/queues/` for keys with the `admin` flag; its own pages and API are not part of this document). HTML for browsers, not part of the bot API.',
    },
  ],
  schemas: {
    ThumbnailDone: ThumbnailDoneSchema,
    ThumbnailProcessing: ThumbnailProcessingSchema,
    ThumbnailCallbackEvent: ThumbnailCallbackEventSchema,
  },
  endpoints: [...ADMIN_ENDPOINTS, ...THUMBNAIL_ENDPOINTS],
  legacyPaths: { ...queueDashboardPaths, ...legacyCheckPaths },
});
