/**
 * Text messages handed to the operator's webhook: `POST {"to": "+14155552671", "body": "…"}` as JSON, signed with
 * HMAC-SHA256 of the exact bytes sent under HAUL_SMS_WEBHOOK_SECRET (`X-Haul-Signature: sha256=<hex>`), so a bridge
 * can refuse messages that did not come from Haul. Any 2xx is taken as sent; anything else, a redirect included, or
 * no answer within the time limit, is a failure. The address is the operator's: it skips the offline network guard.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { maskPhoneNumber, type Sms, type SmsMessage } from './sms.js';

export const SIGNATURE_HEADER = 'x-haul-signature';

/** The header value for `body` under `secret`. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export class WebhookSms implements Sms {
  constructor(
    private readonly url: string,
    private readonly secret: string | null,
    private readonly timeoutMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(m: SmsMessage): Promise<void> {
    const body = JSON.stringify({ to: m.to, body: m.body });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Haul' };
    if (this.secret) headers[SIGNATURE_HEADER] = signBody(this.secret, body);
    const to = maskPhoneNumber(m.to);
    try {
      const res = await fetch(this.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
      // The bridge's answer may echo the message: it is read and dropped, never logged.
      await res.arrayBuffer().catch(() => undefined);
      if (res.status < 200 || res.status > 299) throw new Error(`the SMS webhook answered ${res.status}`);
      this.log.info({ to }, 'text message handed to the SMS webhook');
    } catch (err) {
      this.log.error({ to, err: (err as Error).message }, 'text message could not be sent');
      throw err;
    }
  }

  async close(): Promise<void> {}
}
