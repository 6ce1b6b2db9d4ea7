/**
 * The credit rule (plain text, at most 50 code points) is shared with the images import, which
 * applies it to artists: it lives in @pawlink/contracts (`credit-text.ts`).
 */
export { CREDIT_NOT_TEXT as NOT_TEXT, fitsCredit } from '@pawlink/contracts';
