/*
 * The options of a random pick (`?sizeLimit&type&exclude`), which GET /:category and POST /bulk
 * both take (docs/api.md §3): what the document says of each, its code (1057) and its parser.
 */
import { EXCLUDE_MAX, IMAGE_PICK_TYPES, MD5_PATTERN, s, type ImagePickType } from '@pawlink/contracts';
import { ApiError, field, inQuery, optional } from '@pawlink/service-kit';

/** A query value given once (a repeated parameter arrives as an array). */
export const isSingle = (value: unknown): value is string => typeof value === 'string';
/** How a value is quoted in a message: its first 50 characters. */
export const quoted = (value: unknown): string => `"${String(value).slice(0, 50)}"`;

/** 400 1057 with a message saying what is wrong with the value. */
export const invalidQueryValue = (message: string): ApiError => new ApiError('INVALID_QUERY_VALUE', { message });

const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
/** A count of bytes, or a number (decimals allowed) with a unit; surrounding whitespace allowed. */
const SIZE_LIMIT = /^\s*(?:\d+|(?:\d+(?:\.\d+)?|\.\d+)\s*(?:b|kb|mb|gb))\s*$/i;
const SIZE_WITH_UNIT = /^(\d+(?:\.\d+)?|\.\d+)\s*(b|kb|mb|gb)$/i;

/** The bytes a value that matched SIZE_LIMIT stands for (units are powers of two). */
function sizeLimitBytes(value: string): number {
  const text = value.trim();
  const withUnit = SIZE_WITH_UNIT.exec(text);
  return withUnit ? Math.floor(Number(withUnit[1]) * UNIT_BYTES[withUnit[2]!.toLowerCase()]!) : Number(text);
}

/**
 * `sizeLimit` → bytes: an integer count of bytes, or a number (decimals allowed) with a
 * B/KB/MB/GB suffix in powers of two, case-insensitive. Absent stays absent; anything else,
 * including empty, negative and repeated values, is 1057. `0` is valid syntax that nothing fits
 * (1041 at the endpoint).
 */
export const sizeLimit = () =>
  inQuery(
    optional(
      field({
        schema: s.string({ examples: ['512KB'] }),
        description:
          'Only images up to this size: bytes, or a number with B, KB, MB or GB (powers of two, decimals allowed).',
        codes: ['INVALID_QUERY_VALUE'],
        parse: (value): number => {
          if (!isSingle(value))
            throw invalidQueryValue('Invalid sizeLimit: give it once, as bytes or a number with B, KB, MB or GB.');
          if (!SIZE_LIMIT.test(value))
            throw invalidQueryValue(
              `Invalid sizeLimit: ${quoted(value)} is not a byte count or a number with B, KB, MB or GB.`,
            );
          const bytes = sizeLimitBytes(value);
          if (!Number.isSafeInteger(bytes)) throw invalidQueryValue('Invalid sizeLimit: the value is too large.');
          return bytes;
        },
      }),
    ),
  );

/** `type` → one of gif, png, jpg, webp, animated, still (any case); absent stays absent; anything else is 1057. */
export const pickType = () =>
  inQuery(
    optional(
      field({
        schema: s.string({
          // Case-insensitive: JSON Schema patterns have no flags, so each letter is a class (`[gG][iI][fF]`).
          pattern: `^(${IMAGE_PICK_TYPES.map((name) => [...name].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('|')})$`,
        }),
        description: `Only images of this kind: ${IMAGE_PICK_TYPES.join(', ')} (case-insensitive; \`animated\`: more than one frame).`,
        codes: ['INVALID_QUERY_VALUE'],
        parse: (value): ImagePickType => {
          const lower = isSingle(value) ? value.toLowerCase() : undefined;
          const type = IMAGE_PICK_TYPES.find((name) => name === lower);
          if (type === undefined)
            throw invalidQueryValue(`Invalid type: ${quoted(value)} is not one of ${IMAGE_PICK_TYPES.join(', ')}.`);
          return type;
        },
      }),
    ),
  );

/**
 * `exclude` → distinct lower-case MD5s: one value of 1 to 100 comma-separated image ids (MD5s, any
 * case). Absent stays absent; empty, repeated, more ids or anything that is not an MD5 is 1057.
 */
export const exclude = () =>
  inQuery(
    optional(
      field({
        schema: s.string({ pattern: `^[0-9A-Fa-f]{32}(,[0-9A-Fa-f]{32}){0,${EXCLUDE_MAX - 1}}$` }),
        description: `1 to ${EXCLUDE_MAX} image ids (MD5s, any case), comma-separated: never returned while another image fits.`,
        codes: ['INVALID_QUERY_VALUE'],
        parse: (value): string[] => {
          if (!isSingle(value))
            throw invalidQueryValue(
              `Invalid exclude: give it once, as up to ${EXCLUDE_MAX} comma-separated image ids.`,
            );
          const ids = value.split(',');
          if (ids.length > EXCLUDE_MAX) throw invalidQueryValue(`Invalid exclude: at most ${EXCLUDE_MAX} image ids.`);
          const bad = ids.find((id) => !MD5_PATTERN.test(id));
          if (bad !== undefined)
            throw invalidQueryValue(`Invalid exclude: ${quoted(bad)} is not an image id (an MD5).`);
          return [...new Set(ids.map((id) => id.toLowerCase()))];
        },
      }),
    ),
  );

/** The options of a pick, in the order their failures are reported: sizeLimit, type, exclude. */
export const pickOptionsQuery = () => ({ sizeLimit: sizeLimit(), type: pickType(), exclude: exclude() });
