/*
 * The request fields of the thumbs endpoints (docs/api.md §4), each written once: what the
 * document says of it, the contract codes it answers and its parser, which checks and converts the
 * value with the domain's rules.
 */
import {
  CALLBACK_URL_MAX_LENGTH,
  normaliseMd5,
  parseCallbackUrl,
  s,
  THUMBNAIL_TYPES,
  type ThumbnailType,
} from '@pawlink/contracts';
import { ApiError, field, optional, type Field, type OptionalField } from '@pawlink/service-kit';
import { isThumbnailType, parseThumbnailId, type ThumbnailTarget } from '../domain/thumbnail-id.rules.js';

/** `:id`: a 32-hex MD5 (any case, kept lower-case) or a decimal post id (1062 / 1063); whether the board knows it is the service's question. */
export const thumbnailId = (): Field<ThumbnailTarget> =>
  field({
    schema: s.string(),
    description: 'A 32-hex MD5 (any case) or a decimal post id of the board.',
    codes: ['INVALID_POST_ID', 'INVALID_MD5'],
    parse: parseThumbnailId,
  });

const thumbnailTypeOf = (value: unknown): ThumbnailType => {
  if (!isThumbnailType(value)) throw new ApiError('INVALID_TYPE');
  return value;
};

/** `:type`: exactly `gif`, `png`, `webp` or `mp4` (1064). */
export const thumbnailType = (): Field<ThumbnailType> =>
  field({
    schema: s.oneOfValues(THUMBNAIL_TYPES),
    description: 'The thumbnail format.',
    codes: ['INVALID_TYPE'],
    parse: thumbnailTypeOf,
  });

/** The MD5 of `/check/:md5/:type`: 32 hex digits in any case, kept lower-case (1063). */
export const checkMd5 = (
  description = "The MD5 of the post's file (32 hex digits, any case); the type when the two segments come the other way round.",
): Field<string> =>
  field({
    schema: s.string(),
    description,
    codes: ['INVALID_MD5'],
    parse: (value) => {
      const md5 = normaliseMd5(value);
      if (md5 === null) throw new ApiError('INVALID_MD5');
      return md5;
    },
  });

/** The type of `/check/:md5/:type` (1064); documented as a plain string, since the segments may come either way. */
export const checkType = (): Field<ThumbnailType> =>
  field({
    schema: s.string(),
    description:
      'The thumbnail format: `gif`, `png`, `webp` or `mp4`; the MD5 when the two segments come the other way round.',
    codes: ['INVALID_TYPE'],
    parse: thumbnailTypeOf,
  });

/** `?callbackURL=`: one http(s) URL of at most 2048 characters (else 422 1085); whether its host is public is the service's question. */
export const callbackUrl = (): OptionalField<URL> =>
  optional(
    field({
      schema: s.string({ format: 'uri', maxLength: CALLBACK_URL_MAX_LENGTH }),
      description: `Where to POST when the job ends: an http or https URL of at most ${CALLBACK_URL_MAX_LENGTH} characters on a public address (else 422 code 1085 and nothing is queued). Each different URL given for one job gets its call.`,
      codes: ['CALLBACK_URL_REFUSED'],
      parse: (value) => {
        const url = parseCallbackUrl(value);
        if (!url) throw new ApiError('CALLBACK_URL_REFUSED');
        return url;
      },
    }),
  );

/** A string's length as express-validator's `isLength` counts it (a surrogate pair, a presentation selector: once). */
const lengthOf = (text: string): number =>
  text.length -
  (text.match(/[^\uFE0F\uFE0E][\uFE0F\uFE0E]/g)?.length ?? 0) -
  (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);

/** `key` of the login form: the API key pasted (or sent as JSON), trimmed, 1–500 characters; 1013 otherwise. */
export const adminKey = (): Field<string> =>
  field({
    schema: s.string({ minLength: 1, maxLength: 500 }),
    codes: ['API_KEY_REQUIRED'],
    parse: (value) => {
      if (typeof value !== 'string') throw new ApiError('API_KEY_REQUIRED');
      const key = value.trim();
      const length = lengthOf(key);
      if (length < 1 || length > 500) throw new ApiError('API_KEY_REQUIRED');
      return key;
    },
  });
