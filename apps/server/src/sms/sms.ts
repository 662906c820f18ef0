/**
 * Outgoing text messages. With HAUL_SMS_WEBHOOK_URL set, each message is POSTed to that address for the operator's
 * bridge to hand to a gateway (Twilio, Vonage, a modem); without it, messages are kept in the outbox table beside
 * mail, where `haul-admin outbox` shows them. Log lines name the recipient masked, never the body: bodies hold codes.
 * The one in use is made by create-sms.ts.
 */
export interface SmsMessage {
  /** E.164. */
  to: string;
  body: string;
}

export interface Sms {
  /** Sends (or keeps) one message; rejects when it could not. */
  send(message: SmsMessage): Promise<void>;
  /** Waits for messages still being sent. */
  close(): Promise<void>;
}

/** A number as logs show it: the country code's first digits and the last two, `+44*******56`. */
export function maskPhoneNumber(e164: string): string {
  if (e164.length <= 6) return '*'.repeat(e164.length);
  return `${e164.slice(0, 3)}${'*'.repeat(e164.length - 5)}${e164.slice(-2)}`;
}
