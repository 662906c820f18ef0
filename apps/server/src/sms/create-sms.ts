/** Making the text-message sender in use: the operator's webhook or the outbox. */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { tracked } from '../mail/create-mailer.js';
import type { Sms } from './sms.js';
import { OutboxSms } from './sms-outbox.js';
import { WebhookSms } from './webhook-sms.js';

/** The webhook when one is configured, else the outbox. */
export function createSms(config: Pick<Config, 'smsWebhookUrl' | 'smsWebhookSecret' | 'networkTimeoutSeconds'>, db: Db, clock: Clock, log: FastifyBaseLogger): Sms {
  const inner = config.smsWebhookUrl
    ? new WebhookSms(config.smsWebhookUrl, config.smsWebhookSecret, Math.min(config.networkTimeoutSeconds, 15) * 1000, log)
    : new OutboxSms(db, clock, log);
  return tracked(inner);
}
