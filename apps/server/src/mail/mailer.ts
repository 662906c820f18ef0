/**
 * Outgoing mail. With HAUL_SMTP_URL set, messages go out through that server; without it they are kept in the outbox
 * table, where an operator of a household install reads them (`haul-admin outbox`). Log lines name the recipient and
 * the subject, never the body: bodies hold codes. The one in use is made by create-mailer.ts.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Sends (or keeps) one message; rejects when it could not. */
  send(message: MailMessage): Promise<void>;
  /** Waits for messages still being sent, then lets go of the connection. */
  close(): Promise<void>;
}
