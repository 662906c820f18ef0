/**
 * Updates by webhook: when Haul has a public https address, Telegram posts each update to
 * `/v1/telegram/webhook/<secret>`; the API process that receives it only checks the secret (in the path and in
 * Telegram's `X-Telegram-Bot-Api-Secret-Token` header) and keeps the update in telegram_inbox, and the worker holding
 * the bot's lease handles it as it would a polled one. The secret is derived from the token, so every process knows it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';

/** Whether updates come by webhook: `on`, or `auto` with a pinned https public address (Telegram posts only to https). */
export function usesWebhook(config: Pick<Config, 'telegramBotToken' | 'telegramWebhook' | 'publicUrl' | 'publicUrlPinned'>): boolean {
  if (!config.telegramBotToken || config.telegramWebhook === 'off') return false;
  return config.telegramWebhook === 'on' || (config.publicUrlPinned && config.publicUrl.startsWith('https://'));
}

/** The webhook's secret: Telegram allows A-Z, a-z, 0-9, _ and -, up to 256 characters. */
export function webhookSecret(token: string): string {
  return createHmac('sha256', token).update('haul telegram webhook').digest('base64url');
}

export const webhookUrl = (config: Pick<Config, 'publicUrl'>, token: string) => `${config.publicUrl}/v1/telegram/webhook/${webhookSecret(token)}`;

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Keeps a posted update for the worker, once per update id; refuses a wrong secret as not this bot's. */
export async function receiveUpdate(config: Config, db: Db, pathSecret: string, header: string | undefined, update: { update_id: number }, now: number): Promise<void> {
  const token = config.telegramBotToken;
  const secret = token ? webhookSecret(token) : '';
  if (!token || !same(pathSecret, secret) || !same(header ?? '', secret)) throw new HttpError(403, 'permission_denied', "This is not this server's Telegram bot webhook.");
  await db
    .insertInto('telegram_inbox')
    .values({ update_id: update.update_id, body: JSON.stringify(update), received_at: now })
    .onConflict((oc) => oc.column('update_id').doNothing())
    .execute();
}
