/** Administration from the command line: `npm run haul-admin -- <command> ...` (same configuration as the server). */
import { join } from 'node:path';
import { deletionEligibility, markAccountDeleted } from '../accounts/account-deletion.service.js';
import { eraseAccount } from '../accounts/account-erasure.js';
import { createUser, setDisabled, setPassword } from '../accounts/accounts.service.js';
import { endAllSessions } from '../accounts/tokens.js';
import { findUserByEmail } from '../accounts/users.repository.js';
import { buildHaul } from '../app.js';
import { BACKUP_USAGE, backupCommand } from '../backup/backup.cli.js';
import { loadConfig } from '../config.js';
import { purgeExpired } from '../files/trash.service.js';
import { newestOutbox } from '../mail/outbox.js';
import { OAUTH_CLIENT_USAGE, oauthClientCommand } from '../oauth/oauth-client.cli.js';
import { PLANS_USAGE, plansCommand } from '../plans/plans.cli.js';
import { describeReport, migrateBlobsToS3 } from '../storage/migrate-blobs.js';
import { S3BlobStore } from '../storage/s3-blob-store.js';
import { recentCounts } from '../stats/stat-counts.js';

const USAGE = `usage: haul-admin <command>
  create-user <email> <password> [--admin] [--name NAME]   create an account
  reset-password <email> <new-password>                    set a password and end the account's sessions
  sign-out <email>                                          end every session and download link of an account
  disable-user <email>                                      refuse the account's sign-ins and tokens (enable-user undoes it)
  delete-user <email>                                       delete an account and erase all it has (cannot be undone)
  set-quota <email> <bytes>                                 set the storage limit of an account
  set-premium <email> <days>                                premium for that many days from now (0 ends it)
  purge                                                     purge expired trash and unreferenced blobs now
  stats [--days N]                                          usage events the apps reported, per day, for the last N (7) days
  migrate-blobs --to s3 [--verify] [--concurrency N]       copy every blob of the data folder into the HAUL_S3_* bucket,
                                                            reading each back to check it; skips what is there (--verify:
                                                            reads those back too); deletes nothing
  outbox [--limit N]                                        print the newest N (10) mails and text messages kept because
                                                            no SMTP server (HAUL_SMTP_URL) or SMS webhook (HAUL_SMS_WEBHOOK_URL) is set
${BACKUP_USAGE}
${OAUTH_CLIENT_USAGE}
${PLANS_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  // Before buildHaul: backup must not migrate the live database, restore must find the target's untouched.
  if (command === 'backup' || command === 'restore') return backupCommand(command, args);
  const haul = await buildHaul({ ...loadConfig(), logLevel: 'warn' }, { logger: false, heartbeat: false });
  const { ctx } = haul;
  try {
    const user = async (email: string | undefined) => {
      const u = email ? await findUserByEmail(ctx.db, email) : undefined;
      if (!u) throw new Error(`no account with email ${email ?? '(missing)'}`);
      return u;
    };
    switch (command) {
      case 'create-user': {
        const [email, password] = args;
        if (!email || !password) throw new Error(USAGE);
        const nameAt = args.indexOf('--name');
        const u = await createUser(ctx, { email, password, isAdmin: args.includes('--admin'), name: nameAt > 0 ? args[nameAt + 1] : undefined });
        console.log(`created ${u.email} (${u.id})`);
        return 0;
      }
      case 'reset-password': {
        const u = await user(args[0]);
        if (!args[1]) throw new Error(USAGE);
        await setPassword(ctx, u.id, args[1]);
        console.log(`password of ${u.email} reset; its sessions are signed out`);
        return 0;
      }
      case 'sign-out': {
        const u = await user(args[0]);
        await endAllSessions(ctx.db, u.id);
        console.log(`${u.email} is signed out everywhere`);
        return 0;
      }
      case 'disable-user':
      case 'enable-user': {
        const u = await user(args[0]);
        await setDisabled(ctx, u.id, command === 'disable-user');
        console.log(command === 'disable-user' ? `${u.email} is disabled and signed out everywhere` : `${u.email} is enabled`);
        return 0;
      }
      case 'delete-user': {
        // The same path as the account's own deletion, without the sudo token: the operator is trusted.
        const u = await user(args[0]);
        const what = await deletionEligibility(ctx, u.id);
        await markAccountDeleted(ctx, u.id);
        console.log(`${u.email} is deleted and signed out everywhere; erasing ${what.file_count} files, ${what.folder_count} folders (${what.size} bytes), ${what.share_count} shares…`);
        let done = false;
        for (let i = 0; i < 10 && !done; i++) done = (await eraseAccount(ctx, u.id)) === 'done';
        console.log(
          done
            ? `${u.email} is erased; content no other account stores leaves the disk at the next purge (within the hour)`
            : `${u.email} is partly erased (something kept writing to it); the server's periodic jobs finish it`,
        );
        return 0;
      }
      case 'set-quota': {
        const u = await user(args[0]);
        const bytes = Number(args[1]);
        if (!Number.isSafeInteger(bytes) || bytes < 0) throw new Error('set-quota needs a whole number of bytes');
        await ctx.db.updateTable('users').set({ storage_limit: bytes }).where('id', '=', u.id).execute();
        console.log(`storage limit of ${u.email} is now ${bytes} bytes`);
        return 0;
      }
      case 'set-premium': {
        const u = await user(args[0]);
        const days = Number(args[1]);
        if (!Number.isSafeInteger(days) || days < 0) throw new Error('set-premium needs a whole number of days');
        const until = days === 0 ? null : ctx.clock.now() + days * 86_400_000;
        await ctx.db.updateTable('users').set({ premium_expire: until }).where('id', '=', u.id).execute();
        console.log(until ? `${u.email} is premium until ${new Date(until).toISOString()}` : `${u.email} is no longer premium`);
        return 0;
      }
      case 'outbox': {
        const at = args.indexOf('--limit');
        const limit = at >= 0 ? Number(args[at + 1]) : 10;
        if (!Number.isSafeInteger(limit) || limit < 1) throw new Error('outbox --limit needs a whole number of messages');
        const mails = await newestOutbox(ctx.db, limit);
        if (!mails.length) console.log(ctx.config.smtpUrl ? 'the outbox is empty (mail goes out through HAUL_SMTP_URL)' : 'the outbox is empty');
        for (const m of mails) {
          const head = m.channel === 'sms' ? `Text message to: ${m.to}` : `To: ${m.to}\nSubject: ${m.subject}`;
          console.log(`--- ${new Date(m.createdAt).toISOString()}\n${head}\n\n${m.text}`);
        }
        return 0;
      }
      case 'stats': {
        const at = args.indexOf('--days');
        const days = at >= 0 ? Number(args[at + 1]) : 7;
        if (!Number.isSafeInteger(days) || days < 1) throw new Error('--days must be a whole number of 1 or more');
        const rows = await recentCounts(ctx.db, ctx.clock.now(), ctx.config.timeZone, days);
        if (!rows.length) console.log(`no events reported in the last ${days} days`);
        for (const r of rows) console.log(`${r.day}  ${r.event.padEnd(36)} ${r.count}`);
        return 0;
      }
      case 'migrate-blobs': {
        const to = args.indexOf('--to');
        if (to < 0 || args[to + 1] !== 's3') throw new Error('migrate-blobs needs --to s3 (the only other store is the data folder itself)');
        const at = args.indexOf('--concurrency');
        const concurrency = at >= 0 ? Number(args[at + 1]) : 4;
        if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new Error('--concurrency must be a whole number of 1 or more');
        // The bucket is read from HAUL_S3_* whatever HAUL_BLOB_STORE says now (local before the switch, s3 after it).
        const target = loadConfig({ ...process.env, HAUL_BLOB_STORE: 's3' }).s3!;
        const s3 = new S3BlobStore(target);
        const blobsDir = join(ctx.config.dataDir, 'blobs');
        try {
          const report = await migrateBlobsToS3(ctx.db, blobsDir, s3, { verify: args.includes('--verify'), concurrency, log: (l) => console.log(l) });
          for (const line of describeReport(report, { blobsDir, bucket: target.bucket })) console.log(line);
          return report.failed.length ? 1 : 0;
        } finally {
          s3.client.destroy();
        }
      }
      case 'purge': {
        console.log(await purgeExpired(ctx));
        return 0;
      }
      case 'oauth-client':
        return await oauthClientCommand(ctx, args);
      case 'plans':
      case 'codes':
      case 'orders':
      case 'refund':
        return await plansCommand(ctx, command, args);
      default:
        console.error(USAGE);
        return 2;
    }
  } catch (err) {
    console.error(`haul-admin: ${(err as Error).message}`);
    return 1;
  } finally {
    await haul.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
