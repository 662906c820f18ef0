/** Mail kept in the database when no SMTP server is configured: an operator reads codes with `haul-admin outbox`. */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';
import type { Clock } from '../lib/time.js';
import type { Mailer, MailMessage } from './mailer.js';

/** Kept a week: long enough to read a code that lasts minutes, short enough not to pile up codes and addresses. */
export const OUTBOX_KEEP_MS = 7 * 86_400_000;

export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(m: MailMessage): Promise<void> {
    await this.db
      .insertInto('mail_outbox')
      .values({ id: newId(), to_address: m.to, subject: m.subject, text_body: m.text, html_body: m.html, created_at: this.clock.now() })
      .execute();
    this.log.info({ to: m.to, subject: m.subject }, 'mail kept in the outbox (no SMTP server is configured): read it with haul-admin outbox');
  }

  async close(): Promise<void> {}
}

export interface OutboxEntry {
  /** 'mail', or 'sms' for a text message (sms/sms-outbox.ts). */
  channel: string;
  to: string;
  subject: string;
  createdAt: number;
  text: string;
}

/** The newest `limit` messages, mail and text messages alike, oldest first (so the newest ends up nearest the prompt). */
export async function newestOutbox(db: Db, limit: number): Promise<OutboxEntry[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['channel', 'to_address', 'subject', 'created_at', 'text_body'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({ channel: r.channel, to: r.to_address, subject: r.subject, createdAt: r.created_at, text: r.text_body }));
}

/** Drops messages older than OUTBOX_KEEP_MS; run by the hourly purge. */
export async function purgeOutbox(db: Db, now: number): Promise<number> {
  const r = await db.deleteFrom('mail_outbox').where('created_at', '<', now - OUTBOX_KEEP_MS).executeTakeFirst();
  return Number(r.numDeletedRows);
}
