/**
 * The second answer: when a cloud download the bot added ends, its chat is told once, with a link that opens the file
 * in Haul (or why it failed). Each row is claimed by deleting it before the message goes, so of several workers one
 * tells, and a crash in between loses the notice rather than repeating it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Api } from 'grammy';
import { FOLDER_KIND } from '@haul/shared';
import type { AppContext } from '../context.js';
import { describeError } from './telegram-api.js';
import { ENDED } from './telegram-handler.js';
import { openFileUrl, WORDS } from './telegram-words.js';

const BATCH = 50;

/** The words of an ended task's notice. */
async function noticeOf(ctx: AppContext, t: { user_id: string; name: string; phase: string; file_id: string; message: string }): Promise<string> {
  if (t.phase !== ENDED[0]) return WORDS.taskFailed(t.name, t.message);
  const file = await ctx.db.selectFrom('files').select('kind').where('user_id', '=', t.user_id).where('id', '=', t.file_id).executeTakeFirst();
  const url = file?.kind === FOLDER_KIND ? `${ctx.config.publicUrl}/drive/all/${encodeURIComponent(t.file_id)}` : openFileUrl(ctx.config.publicUrl, t.file_id);
  return WORDS.done(t.name, url);
}

/** Tells the chats of the bot's tasks that ended since the last pass; answers how many were told. */
export async function tellEndedTasks(ctx: AppContext, api: Api, log: FastifyBaseLogger): Promise<number> {
  const rows = await ctx.db
    .selectFrom('telegram_tasks')
    .innerJoin('tasks', 'tasks.id', 'telegram_tasks.task_id')
    .innerJoin('telegram_links', 'telegram_links.user_id', 'telegram_tasks.user_id')
    .select(['telegram_tasks.task_id', 'tasks.user_id', 'tasks.name', 'tasks.phase', 'tasks.file_id', 'tasks.message', 'telegram_links.chat_id'])
    .where('tasks.phase', 'in', [...ENDED])
    .orderBy('telegram_tasks.created_at')
    .limit(BATCH)
    .execute();
  let told = 0;
  for (const t of rows) {
    const claimed = await ctx.db.deleteFrom('telegram_tasks').where('task_id', '=', t.task_id).executeTakeFirst();
    if (!Number(claimed.numDeletedRows)) continue;
    try {
      await api.sendMessage(t.chat_id, await noticeOf(ctx, t), { link_preview_options: { is_disabled: true } });
      told++;
    } catch (err) {
      log.warn({ err: describeError(err, ctx.config.telegramBotToken) }, 'a Telegram notice could not be sent');
    }
  }
  // Tasks removed before they ended are never told: their rows go.
  await ctx.db.deleteFrom('telegram_tasks').where(({ not, exists, selectFrom }) => not(exists(selectFrom('tasks').select('tasks.id').whereRef('tasks.id', '=', 'telegram_tasks.task_id')))).execute();
  return told;
}
