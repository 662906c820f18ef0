/**
 * The bot's background work, in the worker role: one process at a time long-polls getUpdates, under a lease row in the
 * database that it renews and another worker takes over when it lapses. The offset lives in that row and each handled
 * update is recorded (telegram_updates) before its answer goes, so a restart or a second worker neither loses nor
 * repeats an update. Every worker also tells chats of ended downloads (telegram-notices.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import { describeError, telegramApi } from './telegram-api.js';
import { handleUpdate, type Reply } from './telegram-handler.js';
import { tellEndedTasks } from './telegram-notices.js';
import { usesWebhook, webhookSecret, webhookUrl } from './telegram-webhook.js';

const ROW = 'bot';
/** Handled update ids are kept this long (Telegram keeps an update 24 hours). */
const KEEP_HANDLED_MS = 3 * 86_400_000;

export interface TelegramBotOptions {
  /** getUpdates' long-poll timeout. */
  pollSeconds?: number;
  /** How long a poller's lease lasts unless renewed; another worker takes over after. */
  leaseMs?: number;
  /** Between two passes over ended downloads. */
  noticeEveryMs?: number;
  /** After a failed call to the Bot API, before the next. */
  retryMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export class TelegramBot {
  /** This process's name on the lease. */
  readonly owner = newId();
  private stopper = new AbortController();
  private loops: Promise<void>[] = [];
  private readonly opts: Required<TelegramBotOptions>;
  /** Updates come by webhook (kept in telegram_inbox by the API processes), not by getUpdates. */
  private readonly webhook: boolean;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    opts: TelegramBotOptions = {},
  ) {
    this.opts = { pollSeconds: 25, leaseMs: 60_000, noticeEveryMs: 5_000, retryMs: 5_000, ...opts };
    this.webhook = usesWebhook(ctx.config);
  }

  /** Starts polling (when this process holds the lease) and telling; nothing without a token. */
  start(): void {
    if (!this.ctx.config.telegramBotToken || this.loops.length) return;
    this.stopper = new AbortController();
    const api = telegramApi(this.ctx);
    this.loops = [api.then((a) => this.pollLoop(a)), api.then((a) => this.noticeLoop(a))];
  }

  /** Stops both loops, cutting a long poll short, and gives the lease up so another worker polls at once. */
  async stop(): Promise<void> {
    if (!this.loops.length) return;
    this.stopper.abort();
    await Promise.all(this.loops);
    this.loops = [];
    await this.ctx.db.updateTable('telegram_poller').set({ lease_until: 0 }).where('id', '=', ROW).where('owner', '=', this.owner).execute().catch(() => undefined);
  }

  private warn(err: unknown, what: string): void {
    this.log.warn({ err: describeError(err, this.ctx.config.telegramBotToken) }, what);
  }

  /** Takes or renews the lease; true when this process holds it. */
  async takeLease(): Promise<boolean> {
    const now = Date.now();
    await this.ctx.db.insertInto('telegram_poller').values({ id: ROW, owner: '', lease_until: 0, update_offset: 0, bot_username: '' }).onConflict((oc) => oc.column('id').doNothing()).execute();
    const r = await this.ctx.db
      .updateTable('telegram_poller')
      .set({ owner: this.owner, lease_until: now + this.opts.leaseMs })
      .where('id', '=', ROW)
      .where((eb) => eb.or([eb('owner', '=', this.owner), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  private async pollLoop(api: Api): Promise<void> {
    const signal = this.stopper.signal;
    let held = false;
    while (!signal.aborted) {
      try {
        const had = held;
        held = await this.takeLease();
        if (!held) {
          await sleep(Math.min(this.opts.leaseMs / 2, 10_000), signal);
          continue;
        }
        if (!had) await this.begin(api);
        const updates = this.webhook ? await this.fromInbox(signal) : await this.poll(api, signal);
        for (const u of updates) {
          if (signal.aborted) break;
          await this.handle(api, u);
        }
      } catch (err) {
        if (signal.aborted) break;
        held = false;
        this.warn(err, 'the Telegram bot could not poll; trying again');
        await sleep(this.opts.retryMs, signal);
      }
    }
  }

  /**
   * On taking the lease: the bot's name for the page's t.me links; the webhook set (Telegram then posts to the API
   * processes) or deleted (so getUpdates works); old records go.
   */
  private async begin(api: Api): Promise<void> {
    const me = await api.getMe();
    await this.ctx.db.updateTable('telegram_poller').set({ bot_username: me.username ?? '' }).where('id', '=', ROW).execute();
    const token = this.ctx.config.telegramBotToken!;
    if (this.webhook) await api.setWebhook(webhookUrl(this.ctx.config, token), { secret_token: webhookSecret(token), allowed_updates: ['message'] });
    else await api.deleteWebhook();
    await this.ctx.db.deleteFrom('telegram_updates').where('handled_at', '<', Date.now() - KEEP_HANDLED_MS).execute();
    this.log.info(this.webhook ? 'the Telegram bot takes messages by webhook' : 'the Telegram bot is polling for messages');
  }

  /** Long polling from the stored offset. */
  private async poll(api: Api, signal: AbortSignal): Promise<Update[]> {
    const row = await this.ctx.db.selectFrom('telegram_poller').select('update_offset').where('id', '=', ROW).executeTakeFirstOrThrow();
    return api.getUpdates({ offset: Number(row.update_offset), timeout: this.opts.pollSeconds, allowed_updates: ['message'] }, signal as unknown as Parameters<Api['getUpdates']>[1]);
  }

  /** Updates the webhook kept, oldest first; a pause when there are none (the inbox is looked at every second). */
  private async fromInbox(signal: AbortSignal): Promise<Update[]> {
    const rows = await this.ctx.db.selectFrom('telegram_inbox').select(['update_id', 'body']).orderBy('update_id').limit(100).execute();
    if (rows.length === 0) await sleep(Math.min(1_000, this.opts.pollSeconds * 1000), signal);
    return rows.map((r) => JSON.parse(r.body) as Update);
  }

  /** One update: its effects, then its record and the offset past it, then (when this pass recorded it) its answer. */
  private async handle(api: Api, u: Update): Promise<void> {
    const seen = await this.ctx.db.selectFrom('telegram_updates').select('update_id').where('update_id', '=', u.update_id).executeTakeFirst();
    const reply: Reply | null = seen ? null : await handleUpdate(this.ctx, u, this.log);
    const recorded = await this.ctx.db.transaction().execute(async (trx) => {
      const r = seen ? null : await trx.insertInto('telegram_updates').values({ update_id: u.update_id, handled_at: Date.now() }).onConflict((oc) => oc.column('update_id').doNothing()).executeTakeFirst();
      await trx.deleteFrom('telegram_inbox').where('update_id', '=', u.update_id).execute();
      await trx
        .updateTable('telegram_poller')
        .set({ update_offset: u.update_id + 1 })
        .where('id', '=', ROW)
        .where('update_offset', '<=', u.update_id)
        .execute();
      return !!r && Number(r.numInsertedOrUpdatedRows) === 1;
    });
    if (!recorded || !reply) return;
    await api.sendMessage(reply.chatId, reply.text, { link_preview_options: { is_disabled: true } }).catch((err: unknown) => this.warn(err, 'a Telegram answer could not be sent'));
  }

  private async noticeLoop(api: Api): Promise<void> {
    const signal = this.stopper.signal;
    while (!signal.aborted) {
      await tellEndedTasks(this.ctx, api, this.log).catch((err: unknown) => this.warn(err, 'Telegram notices failed; trying again'));
      await sleep(this.opts.noticeEveryMs, signal);
    }
  }
}
