/**
 * What one update from Telegram does: link with `/start CODE`, the commands, and links or a .torrent file made cloud
 * downloads through createOfflineTasks (its limits and folder checks). Handling is safe to repeat for one update (a
 * restart between the effect and the record of the update): the tasks carry `tg:<update_id>` as their request id,
 * and a second pass finds them instead of adding them again. The answer is returned, not sent: the poller sends it
 * once the update is recorded as handled.
 */
import type { Message, Update } from 'grammy/types';
import type { FastifyBaseLogger } from 'fastify';
import { FOLDER_KIND, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { createOfflineTasks, OFFLINE, TORRENT_MAX_BYTES } from '../offline/offline.service.js';
import { describeError, telegramApi } from './telegram-api.js';
import { downloadTelegramFile, TelegramFileError } from './telegram-files.js';
import { folderName, linkOfTelegramUser, redeemLinkCode, unlink, type TelegramLink } from './telegram-links.js';
import { refusal, taskLine, WORDS } from './telegram-words.js';

export interface Reply {
  chatId: string;
  text: string;
}

/** http(s) and magnet links in a message: its text (or a caption) and its hidden links. */
export function linksIn(msg: Message): string[] {
  const text = msg.text ?? msg.caption ?? '';
  const found: string[] = [...(text.match(/\b(?:https?:\/\/|magnet:\?)[^\s<>"]+/gi) ?? [])];
  for (const e of [...(msg.entities ?? []), ...(msg.caption_entities ?? [])]) if (e.type === 'text_link') found.push(e.url);
  return [...new Set(found.map((l) => l.replace(/[).,;!?]+$/, '')))].slice(0, 100);
}

/** A folder of the account by its path from the top ("Films/New"); '' for the top; null when there is none. */
async function folderByPath(ctx: AppContext, userId: string, path: string): Promise<string | null> {
  let parent = '';
  for (const name of path.split('/').map((s) => s.trim()).filter(Boolean)) {
    const row = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('user_id', '=', userId)
      .where('parent_id', '=', parent)
      .where('name', '=', name)
      .where('kind', '=', FOLDER_KIND)
      .where('trashed', '=', 0)
      .executeTakeFirst();
    if (!row) return null;
    parent = row.id;
  }
  return parent;
}

const isTorrent = (doc: NonNullable<Message['document']>) => /\.torrent$/i.test(doc.file_name ?? '') || doc.mime_type === 'application/x-bittorrent';

/** Adds the downloads of one message (once per update), records them for the completion message, and words the answer. */
async function addDownloads(ctx: AppContext, link: TelegramLink, updateId: number, input: { text: string; torrent?: string }): Promise<string> {
  const requestId = `tg:${updateId}`;
  const parentId = (await folderName(ctx.db, link.user_id, link.folder_id)) ? link.folder_id : '';
  let tasks: TaskRow[] = await ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', link.user_id).where('request_id', '=', requestId).where('type', '=', OFFLINE).execute();
  if (tasks.length === 0) tasks = await createOfflineTasks(ctx, link.user_id, { text: input.text, parentId, torrent: input.torrent }, { requestId });
  const now = ctx.clock.now();
  for (const t of tasks) {
    await ctx.db.insertInto('telegram_tasks').values({ task_id: t.id, user_id: link.user_id, created_at: now }).onConflict((oc) => oc.column('task_id').doNothing()).execute();
  }
  return WORDS.added(tasks.map((t) => t.name), await folderName(ctx.db, link.user_id, parentId));
}

async function command(ctx: AppContext, link: TelegramLink, name: string, arg: string): Promise<string> {
  const pub = ctx.config.publicUrl;
  const folder = () => folderName(ctx.db, link.user_id, link.folder_id);
  switch (name) {
    case 'unlink':
      await unlink(ctx.db, link.user_id);
      return WORDS.unlinked;
    case 'tasks': {
      const rows = await ctx.db
        .selectFrom('tasks')
        .select(['name', 'phase', 'progress'])
        .where('user_id', '=', link.user_id)
        .where('type', '=', OFFLINE)
        .orderBy('created_time', 'desc')
        .limit(10)
        .execute();
      return rows.length ? WORDS.tasks(rows.map(taskLine)) : WORDS.noTasks;
    }
    case 'folder': {
      if (!arg) return WORDS.folder(await folder(), pub);
      const id = await folderByPath(ctx, link.user_id, arg);
      if (id === null) return WORDS.noSuchFolder(arg.slice(0, 200));
      await ctx.db.updateTable('telegram_links').set({ folder_id: id }).where('user_id', '=', link.user_id).execute();
      return WORDS.folder(await folderName(ctx.db, link.user_id, id), pub);
    }
    default:
      return WORDS.help(await folder());
  }
}

/** The answer to one update, after its effects; null for updates the bot does not answer (edits, joins, …). */
export async function handleUpdate(ctx: AppContext, update: Update, log: FastifyBaseLogger): Promise<Reply | null> {
  const msg = update.message;
  if (!msg?.from || msg.from.is_bot) return null;
  const chatId = String(msg.chat.id);
  const reply = (text: string): Reply => ({ chatId, text });
  if (msg.chat.type !== 'private') return reply(WORDS.privateOnly);
  const pub = ctx.config.publicUrl;
  const who = String(msg.from.id);
  const cmd = /^\/([a-z_]+)(?:@\w+)?(?:\s+([\s\S]*))?$/i.exec((msg.text ?? '').trim());
  try {
    if (cmd?.[1]?.toLowerCase() === 'start' && cmd[2]?.trim()) {
      const displayName = [msg.from.first_name, msg.from.last_name].filter(Boolean).join(' ') || msg.from.username || 'Telegram';
      const made = await redeemLinkCode(ctx, cmd[2].trim(), { telegramUserId: who, chatId, displayName });
      if (!made) return reply(WORDS.badCode(pub));
      log.info({ user: made.user_id }, 'a Telegram account was linked');
      return reply(WORDS.linked(await folderName(ctx.db, made.user_id, made.folder_id)));
    }
    const link = await linkOfTelegramUser(ctx.db, who);
    if (!link) return reply(WORDS.notLinked(pub));
    if (cmd) return reply(await command(ctx, link, cmd[1]!.toLowerCase(), (cmd[2] ?? '').trim()));
    if (msg.document) {
      if (!isTorrent(msg.document)) return reply(WORDS.notTorrent);
      if ((msg.document.file_size ?? 0) > TORRENT_MAX_BYTES) return reply(WORDS.failed(`The torrent file is larger than ${TORRENT_MAX_BYTES / 1024 / 1024} MB.`));
      const file = await (await telegramApi(ctx)).getFile(msg.document.file_id);
      if (!file.file_path) return reply(WORDS.failed('Telegram did not hand over the file; please send it again.'));
      const bytes = await downloadTelegramFile(ctx.config, file.file_path, TORRENT_MAX_BYTES);
      return reply(await addDownloads(ctx, link, update.update_id, { text: linksIn(msg).join('\n'), torrent: bytes.toString('base64') }));
    }
    const links = linksIn(msg);
    if (links.length === 0) return reply(WORDS.noLink);
    return reply(await addDownloads(ctx, link, update.update_id, { text: links.join('\n') }));
  } catch (err) {
    if (err instanceof HttpError && err.status < 500) return reply(refusal(err, pub));
    if (err instanceof TelegramFileError) return reply(WORDS.failed(err.message));
    log.error({ err: describeError(err, ctx.config.telegramBotToken) }, 'a Telegram message could not be handled');
    return reply(WORDS.trouble);
  }
}

/** Phases after which a task's chat is told. */
export const ENDED = [PHASE.COMPLETE, PHASE.ERROR] as const;
