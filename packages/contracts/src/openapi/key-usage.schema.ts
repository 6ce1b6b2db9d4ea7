import type { JsonSchema } from './types.js';

const USAGE_DAY: JsonSchema = {
  type: 'object',
  required: ['date', 'total', 'routes'],
  properties: {
    date: { type: 'string', format: 'date', description: 'UTC day, `YYYY-MM-DD`.' },
    total: { type: 'integer', minimum: 0 },
    routes: {
      type: 'object',
      description: 'Requests per route pattern (`GET /:category`), never the requested URL.',
      additionalProperties: { type: 'integer', minimum: 1 },
    },
  },
  additionalProperties: false,
};

/**
 * `data.usage` of `GET /status` when a key is presented: the key's own requests to this service,
 * today and over the 30 UTC days ending today. Absent without a key.
 */
export const KEY_USAGE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['service', 'today', 'days'],
  properties: {
    service: {
      type: 'string',
      enum: ['shortener', 'images', 'thumbs'],
      description: 'The service the routes belong to (this one).',
    },
    today: { ...USAGE_DAY, description: 'Always present; `total` 0 when the key was not used today.' },
    days: {
      type: 'array',
      maxItems: 30,
      items: USAGE_DAY,
      description: 'Days with requests, oldest first, today included.',
    },
  },
  additionalProperties: false,
};
