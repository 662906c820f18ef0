/**
 * Haul's calls to the Bot API (grammY's client, at the operator's HAUL_TELEGRAM_API_BASE), and what may be said about
 * them: the token is in every address the client uses, so an error is logged only as its redacted words.
 */
import type { Api } from 'grammy';
import type { AppContext } from '../context.js';

/**
 * grammY's client for the configured bot; throws when no token is set. grammY is loaded on first use: a server without
 * a bot never loads it (as every package only one setting uses; docs/decisions/processes.md).
 */
export async function telegramApi(ctx: AppContext): Promise<Api> {
  const token = ctx.config.telegramBotToken;
  if (!token) throw new Error('no Telegram bot token is set');
  const { Api } = await import('grammy');
  return new Api(token, { apiRoot: ctx.config.telegramApiBase });
}

/** `text` with any bot token (the configured one, and any `<digits>:<secret>` after `bot`) replaced. */
export function redactToken(text: string, token: string | null): string {
  let out = token ? text.split(token).join('<token>') : text;
  out = out.replace(/bot\d+:[\w-]+/g, 'bot<token>');
  return out;
}

/** An error as words fit for the log: no token, no Telegram ids (those are numbers inside Telegram's own messages). */
export function describeError(err: unknown, token: string | null): string {
  const e = err as { name?: string; message?: string; method?: string; error_code?: number; description?: string; error?: { message?: string } };
  // grammY's GrammyError: the Bot API's refusal, told by its fields (grammY itself is not loaded just to ask).
  if (e?.name === 'GrammyError') return redactToken(`${e.method}: ${e.error_code} ${e.description}`, token);
  const inner = e?.error?.message ? ` (${e.error.message})` : '';
  return redactToken(`${e?.message ?? String(err)}${inner}`, token).slice(0, 500);
}

const usernames = new WeakMap<AppContext, string>();

/**
 * The bot's @username (without the @): the one the running bot stored, else asked of getMe once by this process. ''
 * when the Bot API cannot be reached now: the page then shows the code to send by hand.
 */
export async function botUsername(ctx: AppContext): Promise<string> {
  const known = usernames.get(ctx);
  if (known) return known;
  const row = await ctx.db.selectFrom('telegram_poller').select('bot_username').where('id', '=', 'bot').executeTakeFirst();
  let name = row?.bot_username ?? '';
  if (!name && ctx.config.telegramBotToken) {
    name = await telegramApi(ctx)
      .then((api) => api.getMe())
      .then((me) => me.username ?? '')
      .catch(() => '');
  }
  if (name) usernames.set(ctx, name);
  return name;
}
