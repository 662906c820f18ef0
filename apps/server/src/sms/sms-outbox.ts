/** Text messages kept in the outbox table (channel 'sms') when no gateway is configured; `haul-admin outbox` shows them. */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import { maskPhoneNumber, type Sms, type SmsMessage } from './sms.js';

export class OutboxSms implements Sms {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(m: SmsMessage): Promise<void> {
    await this.db
      .insertInto('mail_outbox')
      .values({ id: newId(), channel: 'sms', to_address: m.to, subject: '', text_body: m.body, html_body: '', created_at: this.clock.now() })
      .execute();
    this.log.info({ to: maskPhoneNumber(m.to) }, 'text message kept in the outbox (HAUL_SMS_WEBHOOK_URL is not set): read it with haul-admin outbox');
  }

  async close(): Promise<void> {}
}
