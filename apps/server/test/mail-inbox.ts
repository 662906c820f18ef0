/** A real SMTP server in the test process (smtp-server) that parses what it receives (mailparser), for reading codes. */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Received {
  to: string;
  subject: string;
  text: string;
  html: string;
  from: string;
}

export class MailInbox {
  readonly received: Received[] = [];
  private server: SMTPServer | null = null;
  url = '';

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      // Plain SMTP on loopback: no certificate to make, and nodemailer does not ask for TLS unless offered.
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, done) => {
        simpleParser(stream).then(
          (m: ParsedMail) => {
            const rcpt = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
            for (const to of rcpt) this.received.push({ to, subject: m.subject ?? '', text: m.text ?? '', html: typeof m.html === 'string' ? m.html : '', from: m.from?.text ?? '' });
            done();
          },
          (err: Error) => done(err),
        );
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  }

  /** Mail to `to`, oldest first. */
  to(to: string): Received[] {
    return this.received.filter((m) => m.to === to.toLowerCase());
  }

  /** Waits for the `n`-th mail (1-based) to `to`. */
  async nth(to: string, n: number, ms = 10_000): Promise<Received> {
    const end = Date.now() + ms;
    while (this.to(to).length < n) {
      if (Date.now() > end) throw new Error(`no mail #${n} to ${to} within ${ms} ms (got ${this.received.map((m) => m.to).join(', ') || 'none'})`);
      await sleep(20);
    }
    return this.to(to)[n - 1]!;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The 6-digit code in a mail's text. */
export function codeIn(mail: { text: string }): string {
  const m = /\b(\d{6})\b/.exec(mail.text);
  if (!m) throw new Error(`no code in: ${mail.text}`);
  return m[1]!;
}
