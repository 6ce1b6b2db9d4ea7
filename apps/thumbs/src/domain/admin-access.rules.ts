import type { ApiKey } from '@pawlink/auth';
import type { ApiKeyFlag } from '@pawlink/contracts';

/** The flag a key needs for the admin pages. */
export const ADMIN_FLAG: ApiKeyFlag = 'admin';

/** Whether a key may use the admin pages: active, not disabled, with the `admin` flag. */
export const mayAdminister = (key: ApiKey | null): key is ApiKey =>
  key !== null && key.active && !key.disabled && key.flags.includes(ADMIN_FLAG);
