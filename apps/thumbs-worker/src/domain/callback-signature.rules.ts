import { createHmac } from 'node:crypto';

/**
 * `X-Pawlink-Signature` (legacy, kept): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * keyed with the webhook secret's text as written (`whsec_…` included), as receivers verify it today.
 */
export function callbackSignature(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/**
 * `webhook-signature` (Standard Webhooks): `v1,<base64 HMAC-SHA256 of "<id>.<t>.<body>">` for each
 * key (the secrets' bytes), space-separated, the current secret's first.
 */
export function standardWebhookSignature(
  keys: readonly Buffer[],
  webhookId: string,
  unixSeconds: number,
  body: string,
): string {
  const signed = `${webhookId}.${unixSeconds}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(signed, 'utf8').digest('base64')}`).join(' ');
}
