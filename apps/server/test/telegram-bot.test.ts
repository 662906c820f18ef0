/**
 * The Telegram bot against a stand-in of the Bot API on loopback (HAUL_TELEGRAM_API_BASE): linking with `/start CODE`,
 * a link and a .torrent document made cloud downloads, a limit answered in words with the Upgrade link, the completion
 * message with its open link, a restart and a second poller that neither lose nor repeat an update, unlinking from
 * the bot and from the page, folders, and a log that never holds the token or a Telegram id.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { TelegramBot } from '../src/telegram/telegram-bot.js';
import { webhookSecret } from '../src/telegram/telegram-webhook.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';
import { TelegramStandIn, type StandInUser } from './telegram-stand-in.js';

const TOKEN = '123456789:AAHsecretTOKENvalue_for-tests';
const BODY = Buffer.alloc(20_000, 7);
/** A one-file .torrent, bencoded by hand: enough for a task to be made from it. */
const TORRENT = Buffer.concat([
  Buffer.from('d8:announce22:http://127.0.0.1:1/ann4:infod6:lengthi5e4:name5:a.bin12:piece lengthi16384e6:pieces20:'),
  Buffer.alloc(20, 9),
  Buffer.from('ee'),
]);
const ANN_TG: StandInUser = { id: 777000123, first_name: 'Ann', last_name: 'Example' };
const BOB_TG: StandInUser = { id: 888000456, first_name: 'Bob' };
const FAST = { pollSeconds: 1, noticeEveryMs: 100, leaseMs: 1500, retryMs: 200 };

let origin: Server;
let base: string;
beforeAll(async () => {
  origin = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BODY.length) });
    res.end(req.method === 'HEAD' ? undefined : BODY);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => origin.close(() => r())));

describe('Telegram bot', { timeout: 90_000 }, () => {
  let h: TestHaul;
  let tg: TelegramStandIn;
  let ann: TokenResponse;
  let bob: TokenResponse;
  let bot: TelegramBot;
  const log: string[] = [];
  const call = (method: string, url: string, body?: unknown, who: TokenResponse = ann) => h.api(method, url, who.access_token, body);
  const tasksOf = (userId: string) => h.ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('type', '=', 'offline').execute();
  /** The bot's answers since the `from`th message it sent, its completion notices left out. */
  const answers = (from: number) => tg.sent.slice(from).map((m) => m.text).filter((t) => !t.startsWith('Done:'));
  const userId = async (who: TokenResponse) => (await call('GET', '/v1/user/me', undefined, who)).body.sub as string;

  /** Links `tgUser` to `who` through a fresh code; answers the bot's reply. */
  async function link(who: TokenResponse, tgUser: StandInUser): Promise<string> {
    const code = (await call('POST', '/v1/telegram/link/code', undefined, who)).body.code as string;
    const before = tg.to(tgUser.id).length;
    tg.send(tgUser, { text: `/start ${code}` });
    return tg.nth(tgUser.id, before + 1);
  }
  /** Sends and answers the bot's next reply to that person. */
  async function say(tgUser: StandInUser, content: Parameters<TelegramStandIn['send']>[1]): Promise<string> {
    const before = tg.to(tgUser.id).length;
    tg.send(tgUser, content);
    return tg.nth(tgUser.id, before + 1);
  }

  beforeAll(async () => {
    tg = new TelegramStandIn(TOKEN);
    await tg.start();
    h = await startTestHaul(
      { allowPrivateNetwork: true, dailyTaskLimit: 3, telegramBotToken: TOKEN, telegramApiBase: tg.base, logLevel: 'debug' },
      undefined,
      { logStream: { write: (line) => void log.push(line) } },
    );
    ann = await h.signUp('ann@example.com');
    bob = await h.signUp('bob@example.com');
    bot = new TelegramBot(h.ctx, h.app.log, FAST);
    bot.start();
  });
  afterAll(async () => {
    await bot.stop();
    await h.destroy();
    await tg.stop();
  });

  it('links a Telegram account with a one-time code, and never answers its id', async () => {
    const before = await call('GET', '/v1/telegram/link');
    expect(before.body).toMatchObject({ enabled: true, linked: false, display_name: '' });
    const made = await call('POST', '/v1/telegram/link/code');
    expect(made.status).toBe(200);
    expect(made.body.url).toBe(`https://t.me/haul_test_bot?start=${made.body.code}`);
    // A code from the past that was replaced no longer links.
    const again = await call('POST', '/v1/telegram/link/code');
    expect(await say(ANN_TG, { text: `/start ${made.body.code}` })).toMatch(/unknown, used or expired/);
    expect(await say(ANN_TG, { text: `/start ${again.body.code}` })).toMatch(/^Linked to Haul/);
    const after = await call('GET', '/v1/telegram/link');
    expect(after.body).toMatchObject({ enabled: true, bot_username: 'haul_test_bot', linked: true, display_name: 'Ann Example', folder_id: '' });
    expect(JSON.stringify(after.body)).not.toContain(String(ANN_TG.id));
    // Used once: the same code again links nobody.
    expect(await say(BOB_TG, { text: `/start ${again.body.code}` })).toMatch(/unknown, used or expired/);
    expect(await say(BOB_TG, { text: `${base}/x.bin` })).toMatch(/not linked to Haul yet/);
  });

  it('makes a link a cloud download, answers "added", and tells when it is done with a link that opens the file', async () => {
    const reply = await say(ANN_TG, { text: `please fetch ${base}/films/Big%20Film.mkv thanks` });
    expect(reply).toMatch(/^Added a cloud download into the top of your drive:\n• Big Film\.mkv/);
    const tasks = await tasksOf(await userId(ann));
    expect(tasks).toHaveLength(1);
    h.offline.start();
    const done = await tg.nth(ANN_TG.id, tg.to(ANN_TG.id).length + 1, 30_000);
    const task = (await tasksOf(await userId(ann)))[0]!;
    expect(task.file_id).not.toBe('');
    expect(done).toBe(`Done: Big Film.mkv\nOpen it in Haul: http://haul.test/drive/all?action=open_file&file_ids=${task.file_id}`);
  });

  it('makes a .torrent document a torrent download, fetched from the file path', async () => {
    const reply = await say(ANN_TG, { document: { name: 'pack.torrent', bytes: TORRENT } });
    expect(reply).toMatch(/^Added a cloud download .*\n• a\.bin/s);
    expect(tg.calls).toContain('getFile');
    expect(tg.calls).toContain('file');
    const torrent = (await tasksOf(await userId(ann))).find((t) => t.name === 'a.bin')!;
    expect(JSON.parse(torrent.params)).toMatchObject({ kind: 'bt', torrent: TORRENT.toString('base64') });
    expect(await say(ANN_TG, { document: { name: 'notes.pdf', bytes: Buffer.from('%PDF'), mime: 'application/pdf' } })).toMatch(/\.torrent files only/);
  });

  it("answers a limit with the seed's words and the Upgrade link, adding nothing", async () => {
    const count = (await tasksOf(await userId(ann))).length;
    const reply = await say(ANN_TG, { text: `${base}/a.bin\n${base}/b.bin` });
    expect(reply).toBe('Not added: You can add 3 cloud downloads a day; try again tomorrow or upgrade to premium for more.\nUpgrade: http://haul.test/drive/payment?refer_from=task_limit');
    expect(await tasksOf(await userId(ann))).toHaveLength(count);
    expect(await say(ANN_TG, { text: 'hello' })).toMatch(/found no link/);
  });

  it('lists the latest tasks and chooses the folder from the bot and from the page', async () => {
    expect(await say(ANN_TG, { text: '/tasks' })).toMatch(/^Your latest cloud downloads:\n• a\.bin — /);
    const films = await mkdir(h, ann.access_token, 'Films');
    expect(await say(ANN_TG, { text: '/folder Films' })).toMatch(/land in “Films”/);
    expect((await call('GET', '/v1/telegram/link')).body).toMatchObject({ folder_id: films, folder_name: 'Films' });
    expect(await say(ANN_TG, { text: '/folder Nowhere' })).toMatch(/no folder “Nowhere”/);
    expect((await call('PUT', '/v1/telegram/link/folder', { folder_id: '' })).body).toMatchObject({ folder_id: '', folder_name: '' });
    const bobsFolder = await mkdir(h, bob.access_token, 'Bobs');
    expect((await call('PUT', '/v1/telegram/link/folder', { folder_id: bobsFolder })).status).toBe(404);
    expect((await call('PUT', '/v1/telegram/link/folder', { folder_id: films })).body.folder_name).toBe('Films');
    // Bob is not linked: a folder is refused in words.
    const notLinked = await call('PUT', '/v1/telegram/link/folder', { folder_id: bobsFolder }, bob);
    expect(notLinked.status).toBe(409);
    expect(notLinked.body.error).toBe('failed_precondition');
  });

  it('neither loses nor repeats across a restart: takes up what arrived while stopped, once, even from an old offset', async () => {
    await bot.stop();
    const bobId = await userId(bob);
    const code = (await call('POST', '/v1/telegram/link/code', undefined, bob)).body.code as string;
    tg.send(BOB_TG, { text: `/start ${code}` });
    tg.send(BOB_TG, { text: `${base}/one.bin` });
    // A crash before the offset was stored: the next poller asks from the start and gets every update again.
    await h.ctx.db.updateTable('telegram_poller').set({ update_offset: 0 }).execute();
    const answered = tg.sent.length;
    bot = new TelegramBot(h.ctx, h.app.log, FAST);
    bot.start();
    const until = Date.now() + 10_000;
    while ((await tasksOf(bobId)).length < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500));
    // Only the two new updates were answered; every earlier one was known handled.
    expect(answers(answered).map((t) => t.split('\n')[0])).toEqual(['Linked to Haul. Send me a link, several links, a magnet link or a .torrent file and I will download it into the top of your drive.', 'Added a cloud download into the top of your drive:']);
    expect(await tasksOf(bobId)).toHaveLength(1);
  });

  it('two pollers on one database never handle an update twice, and one takes over when the other stops', async () => {
    const second = new TelegramBot(h.ctx, h.app.log, FAST);
    second.start();
    const bobId = await userId(bob);
    const answered = tg.sent.length;
    for (const n of [1, 2]) tg.send(BOB_TG, { text: `${base}/two-${n}.bin` });
    const until = Date.now() + 10_000;
    while (answers(answered).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500));
    expect(answers(answered)).toHaveLength(2);
    expect(answers(answered).every((t) => t.startsWith('Added a cloud download'))).toBe(true);
    expect((await tasksOf(bobId)).filter((t) => t.name.startsWith('two-'))).toHaveLength(2);
    // The lease holder stops; the other takes over when the lease lapses.
    await bot.stop();
    expect(await say(BOB_TG, { text: '/tasks' })).toMatch(/two-2\.bin/);
    bot = second;
  });

  it('unlinks from the bot and from the page', async () => {
    expect(await say(BOB_TG, { text: '/unlink' })).toMatch(/^Unlinked/);
    expect((await call('GET', '/v1/telegram/link', undefined, bob)).body.linked).toBe(false);
    expect(await say(BOB_TG, { text: `${base}/after.bin` })).toMatch(/not linked/);
    expect((await call('DELETE', '/v1/telegram/link')).status).toBe(200);
    expect((await call('GET', '/v1/telegram/link')).body).toMatchObject({ linked: false, display_name: '' });
    expect(await say(ANN_TG, { text: '/tasks' })).toMatch(/not linked/);
  });

  it("answers a deleted account's Telegram as not linked at once, and erasing the account takes its rows", async () => {
    const cy = await h.signUp('cy@example.com');
    const CY_TG: StandInUser = { id: 999000789, first_name: 'Cy' };
    expect(await link(cy, CY_TG)).toMatch(/^Linked/);
    expect(await say(CY_TG, { text: `${base}/cy.bin` })).toMatch(/^Added/);
    const cyId = await userId(cy);
    await markAccountDeleted(h.ctx, cyId);
    expect(await say(CY_TG, { text: '/tasks' })).toMatch(/not linked/);
    expect(await eraseAccount(h.ctx, cyId)).toBe('done');
    for (const table of ['telegram_links', 'telegram_tasks', 'telegram_link_codes'] as const) {
      expect(await h.ctx.db.selectFrom(table).selectAll().where('user_id', '=', cyId).execute()).toEqual([]);
    }
  });

  it('keeps the token and Telegram ids out of the log', () => {
    const all = log.join('');
    expect(all).toContain('Telegram account was linked');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(TOKEN.split(':')[1]);
    expect(all).not.toContain(String(ANN_TG.id));
    expect(all).not.toContain(String(BOB_TG.id));
    expect(all).not.toContain('999000789');
  });
});

describe('Telegram bot without a token', () => {
  it('says it is off, and refuses a link code in words', async () => {
    const h = await startTestHaul();
    try {
      const who = await h.signUp('carl@example.com');
      expect((await h.api('GET', '/v1/telegram/link', who.access_token)).body).toMatchObject({ enabled: false, bot_username: '', linked: false });
      const code = await h.api('POST', '/v1/telegram/link/code', who.access_token);
      expect(code.status).toBe(409);
      expect(code.body).toMatchObject({ error: 'failed_precondition' });
      expect(code.body.error_description).toMatch(/HAUL_TELEGRAM_BOT_TOKEN/);
    } finally {
      await h.destroy();
    }
  });
});

describe('Telegram bot by webhook', { timeout: 60_000 }, () => {
  it('sets the webhook at the https address, keeps posted updates for the worker, and handles each once', async () => {
    const tg = new TelegramStandIn(TOKEN);
    await tg.start();
    const h = await startTestHaul({ publicUrl: 'https://haul.example', telegramBotToken: TOKEN, telegramApiBase: tg.base });
    const bot = new TelegramBot(h.ctx, h.app.log, FAST);
    try {
      bot.start();
      const secret = webhookSecret(TOKEN);
      await expect.poll(() => tg.webhook).toEqual({ url: `https://haul.example/v1/telegram/webhook/${secret}`, secret_token: secret });
      expect(tg.calls).not.toContain('getUpdates');
      const update = { update_id: 5001, message: { message_id: 1, date: 0, chat: { id: ANN_TG.id, type: 'private' }, from: { ...ANN_TG, is_bot: false }, text: '/help' } };
      const post = (path: string, header: string | undefined, body: unknown = update) =>
        h.app.inject({ method: 'POST', url: `/v1/telegram/webhook/${path}`, headers: header ? { 'x-telegram-bot-api-secret-token': header } : {}, payload: body as object });
      // Without the header, or with another secret, nothing is kept.
      expect((await post(secret, undefined)).statusCode).toBe(403);
      expect((await post('x'.repeat(secret.length), secret)).statusCode).toBe(403);
      expect((await post(secret, 'nope')).json()).toMatchObject({ error: 'permission_denied' });
      expect((await post(secret, secret, { message: {} })).statusCode).toBe(400);
      // Telegram retries a post it thinks failed: the same update twice is answered once.
      expect((await post(secret, secret)).statusCode).toBe(200);
      expect((await post(secret, secret)).statusCode).toBe(200);
      expect(await tg.nth(ANN_TG.id, 1)).toMatch(/not linked to Haul yet/);
      await new Promise((r) => setTimeout(r, 1500));
      expect(tg.to(ANN_TG.id)).toHaveLength(1);
      expect(await h.ctx.db.selectFrom('telegram_inbox').selectAll().execute()).toEqual([]);
    } finally {
      await bot.stop();
      await h.destroy();
      await tg.stop();
    }
  });
});
