import { THUMBNAIL_TYPES } from '../thumbs.js';
import { serviceDocument } from './document.js';
import { header } from './headers.js';
import { json, operation, pathParameter } from './operations.js';
import type { JsonSchema, OpenApiDocument } from './types.js';

const done: JsonSchema = {
  type: 'object',
  required: ['success', 'status', 'url'],
  properties: { success: { const: true }, status: { const: 'done' }, url: { type: 'string', format: 'uri', description: 'MEDIA_URL/<md5>.<type>' } },
  additionalProperties: false,
};

const processing: JsonSchema = {
  type: 'object',
  required: ['success', 'status', 'md5', 'checkURL', 'checkAt', 'time', 'startedAt'],
  properties: {
    success: { const: true },
    status: { const: 'processing' },
    md5: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    checkURL: { type: 'string', format: 'uri', description: 'THUMBS_URL/check/<md5>/<type>' },
    checkAt: { type: 'integer', description: 'Unix ms when to ask again.' },
    time: { type: 'integer', minimum: 0, description: 'Milliseconds from now until checkAt.' },
    startedAt: { type: 'integer', description: 'Unix ms when the job was queued; the same in every answer about it.' },
    progress: { type: 'number', minimum: 0, maximum: 100 },
  },
  additionalProperties: false,
};

const tags = ['thumbnails'];
const key = { tags, access: { key: 'thumbs' as const } };
const id = pathParameter('id', 'A 32-hex MD5 (any case) or a decimal post id of the board.');
const type = pathParameter('type', 'The thumbnail format.', { enum: [...THUMBNAIL_TYPES] });
const noStore = { 'Cache-Control': header('Cache-Control', true) };
const poll = { ...noStore, 'Retry-After': header('Retry-After', true) };

/** The thumbnail service (docs/api.md §4). */
export const thumbsOpenApi: OpenApiDocument = serviceDocument({
  service: 'thumbs',
  title: 'Pawlink thumbnails',
  description: 'Animated GIF and still PNG thumbnails of image-board posts, made by the worker: ask with PUT, poll the check URL.',
  tags: [{ name: 'thumbnails', description: 'Request thumbnails and follow their jobs.' }],
  schemas: { ThumbnailDone: done, ThumbnailProcessing: processing },
  paths: {
    '/check/{first}/{second}': {
      get: operation({
        ...key,
        rateLimit: 'thumbs.check',
        readOnlyAffected: true,
        operationId: 'checkThumbnail',
        summary: 'The state of a thumbnail job',
        description: '`/check/<md5>/<type>`, or the two segments the other way round.',
        parameters: [pathParameter('first', 'The MD5, or the type.'), pathParameter('second', 'The type, or the MD5.')],
        responses: {
          '201': json('Done.', done, noStore),
          '200': json('Still processing; ask again at checkAt.', processing, poll),
        },
        errors: ['INVALID_MD5', 'INVALID_TYPE', 'CHECK_NOT_FOUND', 'THUMBNAIL_ERROR', 'THUMBNAIL_TIMEOUT', 'UNKNOWN_ROUTE'],
      }),
    },
    '/{id}': {
      get: operation({
        ...key,
        rateLimit: 'thumbs.info',
        operationId: 'getThumbnails',
        summary: 'Which thumbnails exist for a post',
        parameters: [id],
        responses: {
          '200': json('The URLs, null where there is none yet.', {
            type: 'object',
            required: ['success', 'gifURL', 'pngURL', 'webpURL', 'thumbhash'],
            properties: {
              success: { const: true },
              gifURL: { type: ['string', 'null'], format: 'uri' },
              pngURL: { type: ['string', 'null'], format: 'uri' },
              webpURL: { type: ['string', 'null'], format: 'uri' },
              thumbhash: { type: ['string', 'null'], contentEncoding: 'base64', description: "ThumbHash of the still frame (a placeholder to show while the thumbnail loads); null until a thumbnail exists." },
            },
            additionalProperties: false,
          }),
        },
        errors: ['INVALID_POST_ID', 'INVALID_MD5', 'BOARD_UNAVAILABLE', 'UNKNOWN_ROUTE'],
      }),
    },
    '/{id}/{type}': {
      put: operation({
        ...key,
        rateLimit: 'thumbs.create',
        readOnlyAffected: true,
        readsBody: true,
        operationId: 'requestThumbnail',
        summary: 'Ask for a thumbnail',
        description: 'Takes no body. One job per (md5, type), whoever asks.',
        parameters: [id, type],
        responses: {
          '200': json('The file exists.', done, noStore),
          '202': json('Queued now or already queued; poll `checkURL` (also in `Location`).', processing, { ...poll, Location: header('Location', true) }),
        },
        errors: ['INVALID_POST_ID', 'INVALID_MD5', 'INVALID_TYPE', 'BOARD_UNAVAILABLE', 'THUMBNAIL_ERROR', 'THUMBNAIL_TIMEOUT', 'UNKNOWN_ROUTE'],
      }),
    },
  },
});
