/** Opens the metadata database: SQLite (WAL, one writer) by default, PostgreSQL when a URL is given. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type LogEvent, type Migration, type MigrationProvider, type PostgresPool } from 'kysely';
import type pg from 'pg';
import { DEFAULT_POOL_SIZE } from '../config.js';
import { fairPool } from './fair-pool.js';
import { nameMarkedQueries } from './named-statements.js';
import { fastRowsDatabase } from './sqlite-rows.js';
import type { Database } from './schema.js';
import * as init from './migrations/2026-11-22-0001-init.js';
import * as uploads from './migrations/2026-11-22-0002-uploads.js';
import * as offline from './migrations/2026-11-22-0003-offline.js';
import * as taskSize from './migrations/2026-11-22-0004-task-size.js';
import * as shares from './migrations/2026-11-23-0005-shares.js';
import * as media from './migrations/2026-11-23-0006-media.js';
import * as sessions from './migrations/2026-11-24-0007-sessions.js';
import * as uploadKeys from './migrations/2026-11-24-0008-upload-keys.js';
import * as verification from './migrations/2026-11-25-0009-verification.js';
import * as accountDeletion from './migrations/2026-11-26-0010-account-deletion.js';
import * as deviceLogin from './migrations/2026-11-27-0011-device-login.js';
import * as oauthApps from './migrations/2026-11-27-0012-oauth-apps.js';
import * as signInProviders from './migrations/2026-11-27-0013-sign-in-providers.js';
import * as twoFactor from './migrations/2026-11-28-0014-two-factor.js';
import * as uploadReplace from './migrations/2026-11-28-0015-upload-replace.js';
import * as phoneNumbers from './migrations/2026-11-29-0016-phone-numbers.js';
import * as plans from './migrations/2026-11-29-0017-plans.js';
import * as trafficUsage from './migrations/2026-11-29-0018-traffic-usage.js';
import * as invitations from './migrations/2026-11-30-0019-invitations.js';
import * as stats from './migrations/2026-12-01-0022-stats.js';
import * as userSettings from './migrations/2026-12-01-0023-user-settings.js';
import * as archives from './migrations/2026-12-01-0020-archives.js';
import * as webdav from './migrations/2026-12-01-0021-webdav.js';
import * as taskRequestId from './migrations/2026-12-02-0024-task-request-id.js';
import * as sharePhrases from './migrations/2026-12-02-0025-share-phrases.js';
import * as uploadLocks from './migrations/2026-12-03-0026-upload-locks.js';
import * as nameSearch from './migrations/2026-12-03-0027-name-search.js';
import * as davLocksExpiry from './migrations/2026-12-03-0029-dav-locks-expiry.js';
import * as idCollation from './migrations/2026-12-04-0030-id-collation.js';
import * as refreshSuccessor from './migrations/2026-12-05-0031-refresh-successor.js';
import * as sessionOffspring from './migrations/2026-12-06-0032-session-offspring.js';
import * as paymentFulfilments from './migrations/2026-12-06-0033-payment-fulfilments.js';
import * as taskClaims from './migrations/2026-12-07-0034-task-claims.js';
import * as davPropSizes from './migrations/2026-12-07-0035-dav-prop-sizes.js';
import * as mediaJobOwners from './migrations/2026-12-07-0036-media-job-owners.js';
import * as davChecksums from './migrations/2026-12-08-0037-dav-checksums.js';
import * as auditEvents from './migrations/2026-12-09-0038-audit-events.js';
import * as shareModeration from './migrations/2026-12-09-0039-share-moderation.js';
import * as feedback from './migrations/2026-12-10-0040-feedback.js';
import * as processHeartbeats from './migrations/2026-12-10-0041-process-heartbeats.js';
import * as shareReports from './migrations/2026-12-11-0042-share-reports.js';
import * as codeRevocation from './migrations/2026-12-11-0043-code-revocation.js';
import * as trials from './migrations/2026-12-11-0044-trials.js';
import * as passkeys from './migrations/2026-12-12-0045-passkeys.js';
import * as bookmarks from './migrations/2026-12-13-0046-bookmarks.js';
import * as invitationsListed from './migrations/2026-12-14-0047-invitations-listed.js';
import * as feeds from './migrations/2026-12-15-0048-feeds.js';
import * as telegram from './migrations/2026-12-15-0049-telegram.js';
import * as deadSources from './migrations/2026-12-16-0050-dead-sources.js';

/**
 * SQLite ends a transaction by itself when a statement fails on a full disk (SQLITE_FULL); Kysely's ROLLBACK after it
 * then fails with "no transaction is active" and that error replaced the real one. Skipped when nothing is open, the
 * caller sees the disk-full error and answers it as such.
 */
class KeepCauseSqliteDriver extends SqliteDriver {
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (err) {
      if (!/no transaction is active/.test(String((err as Error)?.message))) throw err;
    }
  }
}

class KeepCauseSqliteDialect extends SqliteDialect {
  constructor(private readonly options: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(options);
  }
  override createDriver(): Driver {
    return new KeepCauseSqliteDriver(this.options);
  }
}

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

/** Who watches each database's queries (their SQL, as sent): a test counts a request's round trips with it. */
const queryWatchers = new WeakMap<Db, Set<(sql: string) => void>>();

/** Calls `watch` with every query `db` runs until the returned function is called. */
export function watchQueries(db: Db, watch: (sql: string) => void): () => void {
  const set = queryWatchers.get(db);
  if (!set) throw new Error('not a database opened by openDatabase');
  set.add(watch);
  return () => void set.delete(watch);
}

let pgLoaded: Promise<typeof pg> | null = null;

/** node-postgres, loaded once a database URL is set: a server on SQLite (the default) never loads it. */
export function loadPg(): Promise<typeof pg> {
  pgLoaded ??= import('pg').then(({ default: lib }) => {
    // int8 columns (sizes, epoch ms) fit in a double; read them as numbers like SQLite does.
    lib.types.setTypeParser(20, (v) => Number(v));
    return lib;
  });
  return pgLoaded;
}

/** Forward-only migrations, in order; each runs once, at boot. */
const migrations: Record<string, Migration> = {
  '2026-11-22-0001-init': init,
  '2026-11-22-0002-uploads': uploads,
  '2026-11-22-0003-offline': offline,
  '2026-11-22-0004-task-size': taskSize,
  '2026-11-23-0005-shares': shares,
  '2026-11-23-0006-media': media,
  '2026-11-24-0007-sessions': sessions,
  '2026-11-24-0008-upload-keys': uploadKeys,
  '2026-11-25-0009-verification': verification,
  '2026-11-26-0010-account-deletion': accountDeletion,
  '2026-11-27-0011-device-login': deviceLogin,
  '2026-11-27-0012-oauth-apps': oauthApps,
  '2026-11-27-0013-sign-in-providers': signInProviders,
  '2026-11-28-0014-two-factor': twoFactor,
  '2026-11-28-0015-upload-replace': uploadReplace,
  '2026-11-29-0016-phone-numbers': phoneNumbers,
  '2026-11-29-0017-plans': plans,
  '2026-11-29-0018-traffic-usage': trafficUsage,
  '2026-11-30-0019-invitations': invitations,
  '2026-12-01-0020-archives': archives,
  '2026-12-01-0021-webdav': webdav,
  '2026-12-01-0022-stats': stats,
  '2026-12-01-0023-user-settings': userSettings,
  '2026-12-02-0024-task-request-id': taskRequestId,
  '2026-12-02-0025-share-phrases': sharePhrases,
  '2026-12-03-0026-upload-locks': uploadLocks,
  '2026-12-03-0027-name-search': nameSearch,
  '2026-12-03-0029-dav-locks-expiry': davLocksExpiry,
  '2026-12-04-0030-id-collation': idCollation,
  '2026-12-05-0031-refresh-successor': refreshSuccessor,
  '2026-12-06-0032-session-offspring': sessionOffspring,
  '2026-12-06-0033-payment-fulfilments': paymentFulfilments,
  '2026-12-07-0034-task-claims': taskClaims,
  '2026-12-07-0035-dav-prop-sizes': davPropSizes,
  '2026-12-07-0036-media-job-owners': mediaJobOwners,
  '2026-12-08-0037-dav-checksums': davChecksums,
  '2026-12-09-0038-audit-events': auditEvents,
  '2026-12-09-0039-share-moderation': shareModeration,
  '2026-12-10-0040-feedback': feedback,
  '2026-12-10-0041-process-heartbeats': processHeartbeats,
  '2026-12-11-0042-share-reports': shareReports,
  '2026-12-11-0043-code-revocation': codeRevocation,
  '2026-12-11-0044-trials': trials,
  '2026-12-12-0045-passkeys': passkeys,
  '2026-12-13-0046-bookmarks': bookmarks,
  '2026-12-14-0047-invitations-listed': invitationsListed,
  '2026-12-15-0048-feeds': feeds,
  '2026-12-15-0049-telegram': telegram,
  '2026-12-16-0050-dead-sources': deadSources,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface OpenedDb {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL's connection pool; none on SQLite. */
  pool?: PoolUse;
}

/**
 * How one process uses its PostgreSQL connections, for /metrics: when every connection is busy a query waits for one,
 * which is where Haul's time goes under load on PostgreSQL (bench/README.md, "load").
 */
export interface PoolUse {
  size: number;
  open(): number;
  idle(): number;
  /** Queries waiting for a connection now. */
  waiting(): number;
  /** Connections handed out since start, and the seconds spent getting them (a new connection's opening included). */
  acquired: number;
  waitSeconds: number;
}

/** How long a query waits for its turn at the pool, and then again for pg to open or hand over a connection. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A pool whose idle connections may be closed under it (a database restart, a failover, an administrator) without
 * taking the process down: pg emits 'error' on the pool for those, and an unhandled 'error' event would crash Node.
 * The pool drops the broken connection and opens a new one on the next query. Kysely gets it through a queue served
 * in rotation by client (db/fair-pool.ts) that also times each wait for a connection.
 */
function pgPool(lib: typeof pg, connectionString: string, size: number): { pool: PostgresPool; use: PoolUse } {
  // A database that is down fails requests within seconds (503) instead of holding them until it returns.
  const pool = new lib.Pool({ connectionString, max: size, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // The pool listens only to idle connections. One in use between two statements of a transaction, closed then, would
  // emit an 'error' nobody hears and end the process; the transaction's next statement fails and is answered as usual.
  pool.on('connect', (client) => {
    client.on('error', (err) => console.warn(`database connection closed: ${err.message}`));
    nameMarkedQueries(client as unknown as Parameters<typeof nameMarkedQueries>[0]);
  });
  // An idle connection's error reaches the pool as well, already logged by the connection's own listener above.
  pool.on('error', () => undefined);
  const fair = fairPool(pool, size, CONNECT_TIMEOUT_MS);
  const use: PoolUse = { size, open: () => pool.totalCount, idle: () => pool.idleCount, waiting: () => fair.waiting(), acquired: 0, waitSeconds: 0 };
  const timed: PostgresPool = {
    async connect() {
      const start = performance.now();
      const client = await fair.connect();
      use.acquired++;
      use.waitSeconds += (performance.now() - start) / 1000;
      return client;
    },
    end: () => fair.end(),
  };
  return { pool: timed, use };
}

/** Opens the database and applies pending migrations. */
export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string; poolSize?: number }): Promise<OpenedDb> {
  let db: Db;
  let dialect: Dialect;
  let pool: PoolUse | undefined;
  const watchers = new Set<(sql: string) => void>();
  // Kysely's log sees every query once, transactions' included; with no watcher it costs a call and a loop over nothing.
  const log = (event: LogEvent) => {
    if (event.level === 'query') for (const w of watchers) w(event.query.sql);
  };
  if (opts.databaseUrl) {
    dialect = 'postgres';
    const opened = pgPool(await loadPg(), opts.databaseUrl, opts.poolSize ?? DEFAULT_POOL_SIZE);
    pool = opened.use;
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: opened.pool }), log });
  } else {
    dialect = 'sqlite';
    mkdirSync(opts.dataDir, { recursive: true });
    const sqlite = new SQLite(join(opts.dataDir, 'haul.db'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    db = new Kysely<Database>({ dialect: new KeepCauseSqliteDialect({ database: fastRowsDatabase(sqlite) }), log });
  }
  queryWatchers.set(db, watchers);
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    await db.destroy();
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message}`);
  }
  return { db, dialect, pool };
}
