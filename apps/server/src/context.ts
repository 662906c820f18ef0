/** What services are handed: configuration, database, blob store, clock, signing keys, mail. */
import type { Config } from './config.js';
import type { Db, Dialect } from './db/database.js';
import type { Clock } from './lib/time.js';
import type { Mailer } from './mail/mailer.js';
import type { Sms } from './sms/sms.js';
import type { BlobStore } from './storage/blob-store.js';
import type { UploadStore } from './uploads/upload-store.js';

export interface Secrets {
  /** HMAC key of access tokens (HS256). */
  tokenKey: Uint8Array;
  /** HMAC key of signed download links. */
  linkKey: Uint8Array;
}

export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  blobs: BlobStore;
  /** Bytes of resumable uploads still in flight. */
  uploads: UploadStore;
  clock: Clock;
  secrets: Secrets;
  /** Outgoing mail: SMTP when configured, else the outbox table. */
  mailer: Mailer;
  /** Outgoing text messages: the operator's webhook when configured, else the outbox table. */
  sms: Sms;
}
