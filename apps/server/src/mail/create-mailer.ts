/** Making the mailer in use: SMTP or the outbox, with its sends in flight tracked so a stop lets them finish. */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import type { Mailer } from './mailer.js';
import { OutboxMailer } from './outbox.js';
import { SmtpMailer } from './smtp.js';

/** The SMTP mailer when a server is configured, else the outbox. */
export function createMailer(config: Config, db: Db, clock: Clock, log: FastifyBaseLogger): Mailer {
  const inner = config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom, log) : new OutboxMailer(db, clock, log);
  return tracked(inner);
}

/** Keeps the sends in flight, so close() lets them finish (a code sent as the server stops still arrives). */
export function tracked<M>(inner: { send(message: M): Promise<void>; close(): Promise<void> }): { send(message: M): Promise<void>; close(): Promise<void> } {
  const inFlight = new Set<Promise<void>>();
  return {
    send(message) {
      const p = inner.send(message);
      const settled = p.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(settled);
      void settled.then(() => inFlight.delete(settled));
      return p;
    },
    async close() {
      await Promise.all(inFlight);
      await inner.close();
    },
  };
}
