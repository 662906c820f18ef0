/**
 * Outgoing text messages. With HAUL_SMS_WEBHOOK_URL set, each message is POSTed to that address for the operator's
 * bridge to hand to a gateway (Twilio, Vonage, a modem); without it, messages are kept in the outbox table beside
 * mail, where `haul-admin outbox` shows them. Log lines name the recipient masked, never the body: bodies hold codes.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { tracked } from '../mail/mailer.js';
import { OutboxSms } from './sms-outbox.js';
import { WebhookSms } from './webhook-sms.js';

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

/** The webhook when one is configured, else the outbox. */
export function createSms(config: Pick<Config, 'smsWebhookUrl' | 'smsWebhookSecret' | 'networkTimeoutSeconds'>, db: Db, clock: Clock, log: FastifyBaseLogger): Sms {
  const inner = config.smsWebhookUrl
    ? new WebhookSms(config.smsWebhookUrl, config.smsWebhookSecret, Math.min(config.networkTimeoutSeconds, 15) * 1000, log)
    : new OutboxSms(db, clock, log);
  return tracked(inner);
}

/** A number as logs show it: the country code's first digits and the last two, `+44*******56`. */
export function maskPhoneNumber(e164: string): string {
  if (e164.length <= 6) return '*'.repeat(e164.length);
  return `${e164.slice(0, 3)}${'*'.repeat(e164.length - 5)}${e164.slice(-2)}`;
}
