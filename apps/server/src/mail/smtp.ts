/**
 * Mail through an SMTP server (nodemailer): one transport for the process, a connection per message. nodemailer is
 * loaded with the first message, so a server without SMTP (mail kept in the outbox) never loads it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.js';

export class SmtpMailer implements Mailer {
  private transport: Promise<Transporter> | null = null;

  constructor(
    private readonly url: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  private transporter(): Promise<Transporter> {
    // Bounded waits: a mail server that hangs must not hold a request (or a stop) for minutes.
    this.transport ??= import('nodemailer').then(({ createTransport }) => createTransport({ url: this.url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 }));
    return this.transport;
  }

  async send(m: MailMessage): Promise<void> {
    try {
      await (await this.transporter()).sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      this.log.info({ to: m.to, subject: m.subject }, 'mail sent');
    } catch (err) {
      // The SMTP reply says what went wrong; the message itself stays out of the log.
      this.log.error({ to: m.to, subject: m.subject, err: (err as Error).message }, 'mail could not be sent');
      throw err;
    }
  }

  async close(): Promise<void> {
    // A transport that could not be made has nothing to close (its send said why).
    (await this.transport?.catch(() => null))?.close();
  }
}
