/** Mail through an SMTP server (nodemailer): one transport for the process, a connection per message. */
import type { FastifyBaseLogger } from 'fastify';
import { createTransport } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.js';

export class SmtpMailer implements Mailer {
  private readonly transport: ReturnType<typeof createTransport>;

  constructor(
    url: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {
    // Bounded waits: a mail server that hangs must not hold a request (or a stop) for minutes.
    this.transport = createTransport({ url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
  }

  async send(m: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      this.log.info({ to: m.to, subject: m.subject }, 'mail sent');
    } catch (err) {
      // The SMTP reply says what went wrong; the message itself stays out of the log.
      this.log.error({ to: m.to, subject: m.subject, err: (err as Error).message }, 'mail could not be sent');
      throw err;
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
