import { md5Schema } from '../md5.js';
import { AMOUNT_MAX, AMOUNT_MIN, EXCLUDE_MAX, IMAGE_BYTES_HEADERS, IMAGE_PICK_TYPES } from '../images.js';
import { MD5_PATTERN } from '../md5.js';
import { schemaRef } from './error-schemas.js';
import { serviceDocument } from './document.js';
import { header } from './headers.js';
import { empty, json, jsonBody, operation, pathParameter, queryParameter, successWith } from './operations.js';
import { MULTI_SEGMENT, type HeaderObject, type OpenApiDocument } from './types.js';

const IMAGE = {
  type: 'object',
  required: [
    'id',
    'url',
    'name',
    'ext',
    'type',
    'size',
    'width',
    'height',
    'artists',
    'sources',
    'reportURL',
    'shortURL',
    'thumbhash',
  ],
  properties: {
    id: md5Schema({ description: "The file's MD5." }),
    url: { type: 'string', format: 'uri', description: 'IMAGES_MEDIA_URL/<id>.<ext>' },
    name: { type: 'string' },
    ext: { type: 'string' },
    type: { type: 'string', description: 'MIME type.' },
    size: { type: 'integer', minimum: 0, description: 'Bytes.' },
    width: { type: 'integer', minimum: 0 },
    height: { type: 'integer', minimum: 0 },
    artists: { type: 'array', items: { type: 'string' } },
    sources: { type: 'array', items: { type: 'string' } },
    reportURL: { type: ['string', 'null'] },
    shortURL: { type: ['string', 'null'], description: "The image's link on the shortener; null until it is made." },
    thumbhash: {
      type: ['string', 'null'],
      contentEncoding: 'base64',
      description: 'ThumbHash placeholder of the image; null until computed.',
    },
  },
};

const CATEGORY = {
  type: 'object',
  required: ['name', 'db', 'sfw'],
  properties: {
    name: { type: 'string', description: '"Group > Name"' },
    db: { type: 'string', description: 'The key: "furry.hug".' },
    sfw: { type: 'boolean', description: 'Safe for work: keys with the `sfw_only` flag may use only these.' },
    _comment: { type: 'string', description: 'Only when disabled.' },
  },
  additionalProperties: false,
};

const CATEGORY_INFO = successWith({
  type: 'object',
  required: ['name', 'db', 'sfw', 'disabled', 'files'],
  properties: {
    name: { type: 'string' },
    db: { type: 'string' },
    sfw: { type: 'boolean' },
    disabled: { type: 'boolean' },
    _comment: { type: 'string' },
    files: {
      type: 'object',
      required: ['exists', 'list'],
      properties: {
        exists: { type: 'boolean' },
        list: {
          type: 'object',
          required: ['total', 'size', 'types'],
          properties: {
            total: { type: 'integer', minimum: 0 },
            size: {
              type: 'object',
              required: ['total', 'totalM', 'average', 'averageM'],
              properties: {
                total: { type: 'number' },
                totalM: { type: 'number' },
                average: { type: 'number' },
                averageM: { type: 'number' },
              },
              additionalProperties: false,
            },
            types: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});

/** The category lists carry a validator; a client that polls them revalidates instead of downloading again. */
const revalidation = {
  parameter: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag of a copy you hold: 304 without a body while it is still current.',
    schema: { type: 'string' },
  },
  notModified: empty('Not modified: the copy whose ETag you sent is current.', { ETag: header('ETag', true) }),
  etag: { ETag: header('ETag', true) },
} as const;

const tags = ['images'];
const info = { tags, access: 'optional-key' as const, rateLimit: 'images.info' };
const sizeLimit = queryParameter(
  'sizeLimit',
  'Only images up to this size: bytes, or a number with B, KB, MB or GB (powers of two, decimals allowed).',
  { type: 'string', examples: ['512KB'] },
);
const pickType = queryParameter(
  'type',
  `Only images of this kind: ${IMAGE_PICK_TYPES.join(', ')} (case-insensitive; \`animated\`: more than one frame).`,
  {
    type: 'string',
    // Case-insensitive: JSON Schema patterns have no flags, so each letter is a class (`[gG][iI][fF]`).
    pattern: `^(${IMAGE_PICK_TYPES.map((name) => [...name].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('|')})$`,
  },
);
const exclude = queryParameter(
  'exclude',
  `1 to ${EXCLUDE_MAX} image ids (MD5s, any case), comma-separated: never returned while another image fits.`,
  {
    type: 'string',
    pattern: `^[0-9A-Fa-f]{32}(,[0-9A-Fa-f]{32}){0,${EXCLUDE_MAX - 1}}$`,
  },
);
const imageArray = { type: 'array', items: schemaRef('Image') };
const imageHeaders: Record<string, HeaderObject> = Object.fromEntries(
  IMAGE_BYTES_HEADERS.map((name) => [
    name,
    {
      description:
        'With image bytes only: describes the image sent (percent-encoded outside printable ASCII). Each value at most 1024 bytes, all `X-Yiffy-*` lines together at most 2048; ' +
        'a list that does not fit ends with `+N more` (the JSON form has it whole), a single value that does not fit is empty.',
      required: false,
      schema: { type: 'string', maxLength: 1024 },
    },
  ]),
);

/** The images service (docs/api.md §3). */
export const imagesOpenApi: OpenApiDocument = serviceDocument({
  service: 'images',
  title: 'Pawlink images',
  description:
    'Random images by category, as JSON records or as the bytes of one image; category listings and bulk picks.',
  tags: [{ name: 'images', description: 'Categories and random images.' }],
  schemas: { Image: IMAGE, Category: CATEGORY },
  paths: {
    '/categories': {
      get: operation({
        ...info,
        operationId: 'listCategories',
        summary: 'Every category, enabled and disabled',
        parameters: [revalidation.parameter],
        responses: {
          '200': json(
            'The categories.',
            successWith({
              type: 'object',
              required: ['enabled', 'disabled'],
              properties: {
                enabled: { type: 'array', items: schemaRef('Category') },
                disabled: { type: 'array', items: schemaRef('Category') },
              },
              additionalProperties: false,
            }),
            revalidation.etag,
          ),
          '304': revalidation.notModified,
        },
      }),
    },
    '/categories/{db}': {
      get: operation({
        ...info,
        operationId: 'getCategory',
        summary: "A category and its files' count, size and types",
        parameters: [pathParameter('db', 'The category key, dotted: `furry.hug`.'), revalidation.parameter],
        responses: { '200': json('The category.', CATEGORY_INFO, revalidation.etag), '304': revalidation.notModified },
        errors: ['CATEGORY_NOT_FOUND', 'UNKNOWN_ROUTE'],
      }),
    },
    '/images/{id}.json': {
      get: operation({
        ...info,
        operationId: 'getImage',
        summary: 'One image by its MD5',
        parameters: [pathParameter('id', 'The MD5 (any case).', { type: 'string', pattern: MD5_PATTERN.source })],
        responses: {
          '200': json(
            'The image with its category key.',
            successWith({
              allOf: [schemaRef('Image')],
              required: ['category'],
              properties: { category: { type: 'string' } },
              unevaluatedProperties: false,
            }),
          ),
        },
        errors: ['IMAGE_NOT_FOUND', 'SFW_ONLY_KEY', 'UNKNOWN_ROUTE'],
      }),
    },
    '/bulk': {
      post: operation({
        tags,
        access: { key: 'images_bulk' },
        rateLimit: 'images.bulk',
        readsBody: true,
        operationId: 'bulkImages',
        summary: 'Random images from several categories at once',
        description:
          "The total asked for may not exceed the key's bulk limit (default 100). `sizeLimit`, `type` and `exclude` apply to every category; a category where no image fits gets `[]`. A key with `sfw_only` gets 403 1058 naming the first category that is not SFW (nothing is picked).",
        parameters: [sizeLimit, pickType, exclude],
        requestBody: jsonBody('Category key → number of images (a positive integer); at most 100 categories.', {
          type: 'object',
          minProperties: 1,
          maxProperties: 100,
          additionalProperties: { type: 'integer', minimum: 1 },
        }),
        responses: {
          '200': json('Images per category.', successWith({ type: 'object', additionalProperties: imageArray })),
        },
        errors: [
          'BULK_INVALID_BODY',
          'BULK_INVALID_CATEGORY',
          'BULK_OVER_LIMIT',
          'INVALID_QUERY_VALUE',
          'SFW_ONLY_KEY',
        ],
      }),
    },
    '/{category}': {
      [MULTI_SEGMENT]: 'category',
      get: operation({
        tags,
        access: 'optional-key',
        rateLimit: 'images.random',
        operationId: 'randomImages',
        summary: 'Random images from a category',
        description:
          'The category key with dots (`/furry.hug`) or with slashes (`/furry/hug`: the variable spans segments). ' +
          'A key with the `sfw_only` flag gets 403 1058 for a category that is not SFW. ' +
          'JSON by default; when `Accept` ranks an image type above JSON and HTML (`Accept: image/*`), the bytes of one random image with `X-Yiffy-*` headers.',
        parameters: [
          pathParameter(
            'category',
            'The category key: `furry.hug`, or `furry/hug` (sent as is, or as one encoded segment `furry%2Fhug`, as generated clients send a path parameter).',
          ),
          // An integer, as clients should send it (a generated client types it as a number); the
          // server also reads a sign and surrounding spaces (` 2`), which the schema leaves out.
          queryParameter(
            'amount',
            `How many images, ${AMOUNT_MIN} to ${AMOUNT_MAX} (default ${AMOUNT_MIN}); below is 400 1051, above 400 1052.`,
            { type: 'integer', default: AMOUNT_MIN },
          ),
          queryParameter('notes', '`disabled` for an empty `notes` list.', { enum: ['disabled'] }),
          sizeLimit,
          pickType,
          exclude,
        ],
        responses: {
          '200': {
            description: 'Random images (JSON), or one image as bytes.',
            headers: imageHeaders,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['success', 'images', 'notes'],
                  properties: {
                    success: { const: true },
                    images: imageArray,
                    notes: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['id', 'content'],
                        properties: { id: { type: 'integer' }, content: { type: 'string' } },
                        additionalProperties: false,
                      },
                    },
                  },
                  additionalProperties: false,
                },
              },
              'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } },
            },
          },
        },
        errors: [
          'AMOUNT_TOO_LOW',
          'AMOUNT_TOO_HIGH',
          'INVALID_QUERY_VALUE',
          'CATEGORY_NOT_FOUND',
          'SFW_ONLY_KEY',
          'NO_RESULTS',
          'UNKNOWN_ROUTE',
        ],
      }),
    },
  },
});
