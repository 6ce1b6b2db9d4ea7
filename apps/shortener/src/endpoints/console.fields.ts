import { s } from '@pawlink/contracts';
import { ApiError, field, type Field } from '@pawlink/service-kit';

const ASSET_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** A file name under `/console/assets/`: anything else is no asset (404 1024). */
export const consoleAssetName = (): Field<string> =>
  field({
    schema: s.string(),
    description: 'A built file of the console (content-hashed name).',
    codes: ['UNKNOWN_ROUTE'],
    parse: (value) => {
      if (typeof value !== 'string' || !ASSET_NAME.test(value)) throw new ApiError('UNKNOWN_ROUTE');
      return value;
    },
  });
