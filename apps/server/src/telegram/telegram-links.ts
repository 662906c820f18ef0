/**
 * The account's side of the Telegram bot: link codes, the link itself (made when the bot receives `/start CODE`), the
 * folder the bot saves into, unlinking. Codes are kept as their SHA-256 only, good once and for 10 minutes.
 */
import { randomBytes } from 'node:crypto';
import { FOLDER_KIND, TELEGRAM_CODE_TTL_SECONDS, type TelegramStatus } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { TelegramLinksTable } from '../db/schema-telegram.js';
import { requireTargetFolder } from '../files/files.repository.js';
import { HttpError } from '../http/errors.js';
import { sha256Hex } from '../lib/ids.js';
import { toRfc3339 } from '../lib/time.js';
import { botUsername } from './telegram-api.js';

export type TelegramLink = TelegramLinksTable;

const notSetUp = () => new HttpError(409, 'failed_precondition', 'This server has no Telegram bot: its operator has not set HAUL_TELEGRAM_BOT_TOKEN.');
/** Letters Telegram takes in a `start` parameter, none that read alike (0/O, 1/l/I). */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

function newCode(): string {
  return [...randomBytes(16)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

export function linkOf(db: Db, userId: string): Promise<TelegramLink | undefined> {
  return db.selectFrom('telegram_links').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The link of a Telegram account, if it is linked to a Haul account that is not being deleted. */
export function linkOfTelegramUser(db: Db, telegramUserId: string): Promise<TelegramLink | undefined> {
  return db
    .selectFrom('telegram_links')
    .innerJoin('users', 'users.id', 'telegram_links.user_id')
    .selectAll('telegram_links')
    .where('telegram_links.telegram_user_id', '=', telegramUserId)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The folder's name, or '' for the top of the drive (or a folder gone since it was chosen). */
export async function folderName(db: Db, userId: string, folderId: string): Promise<string> {
  if (!folderId) return '';
  const row = await db.selectFrom('files').select(['name', 'kind', 'trashed']).where('user_id', '=', userId).where('id', '=', folderId).executeTakeFirst();
  return row && row.kind === FOLDER_KIND && !row.trashed ? row.name : '';
}

export async function telegramStatus(ctx: AppContext, userId: string): Promise<TelegramStatus> {
  const enabled = ctx.config.telegramBotToken !== null;
  const link = await linkOf(ctx.db, userId);
  return {
    enabled,
    bot_username: enabled ? await botUsername(ctx) : '',
    linked: !!link,
    display_name: link?.display_name ?? '',
    folder_id: link?.folder_id ?? '',
    folder_name: link ? await folderName(ctx.db, userId, link.folder_id) : '',
    linked_at: toRfc3339(link?.linked_at ?? null),
  };
}

/** A fresh code for the account; its earlier codes stop working. */
export async function makeLinkCode(ctx: AppContext, userId: string): Promise<{ code: string; url: string; expires_at: string }> {
  if (!ctx.config.telegramBotToken) throw notSetUp();
  const code = newCode();
  const expiresAt = ctx.clock.now() + TELEGRAM_CODE_TTL_SECONDS * 1000;
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('telegram_link_codes').where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<', ctx.clock.now())])).execute();
    await trx.insertInto('telegram_link_codes').values({ code_hash: sha256Hex(code), user_id: userId, expires_at: expiresAt }).execute();
  });
  const username = await botUsername(ctx);
  return { code, url: username ? `https://t.me/${username}?start=${code}` : '', expires_at: toRfc3339(expiresAt) };
}

/**
 * Links the Telegram account that sent `code` to the code's account, using the code up. A Telegram account linked to
 * another Haul account moves to this one (it proved it holds this account's fresh code); the Haul account's earlier
 * Telegram account is replaced. Null when the code is unknown, used or expired.
 */
export async function redeemLinkCode(
  ctx: AppContext,
  code: string,
  who: { telegramUserId: string; chatId: string; displayName: string },
): Promise<TelegramLink | null> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('telegram_link_codes').where('code_hash', '=', sha256Hex(code)).returningAll().executeTakeFirst();
    if (!row || row.expires_at < now) return null;
    const earlier = await trx.selectFrom('telegram_links').select('folder_id').where('user_id', '=', row.user_id).executeTakeFirst();
    await trx.deleteFrom('telegram_links').where((eb) => eb.or([eb('user_id', '=', row.user_id), eb('telegram_user_id', '=', who.telegramUserId)])).execute();
    const link: TelegramLink = {
      user_id: row.user_id,
      telegram_user_id: who.telegramUserId,
      chat_id: who.chatId,
      display_name: who.displayName.slice(0, 200),
      folder_id: earlier?.folder_id ?? '',
      linked_at: now,
    };
    await trx.insertInto('telegram_links').values(link).execute();
    return link;
  });
}

export async function setLinkFolder(ctx: AppContext, userId: string, folderId: string): Promise<void> {
  await requireTargetFolder(ctx.db, userId, folderId);
  const r = await ctx.db.updateTable('telegram_links').set({ folder_id: folderId }).where('user_id', '=', userId).executeTakeFirst();
  if (!r.numUpdatedRows) throw new HttpError(409, 'failed_precondition', 'This account is not linked to Telegram.');
}

/** Unlinks (from the page or the bot); true when there was a link. */
export async function unlink(db: Db, userId: string): Promise<boolean> {
  const r = await db.deleteFrom('telegram_links').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
