/**
 * A stand-in of the Telegram Bot API on loopback, speaking its documented shapes (`{ok, result}` or `{ok:false,
 * error_code, description}`): getMe, getUpdates (a long poll honouring offset, limit and timeout), sendMessage,
 * getFile and the file path download, setWebhook and deleteWebhook. Updates are kept for good and answered from the
 * offset asked for, so a bot that asks again from an old offset (a crash before it stored its own) gets them again,
 * as from Telegram. "People" send through `send`, and read the bot's answers in `sent`.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface SentMessage {
  chat_id: string;
  text: string;
}

export interface StandInUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
}

export class TelegramStandIn {
  readonly updates: { update_id: number; message: Record<string, unknown> }[] = [];
  readonly sent: SentMessage[] = [];
  /** Every method called, in order (`getUpdates`, `sendMessage`, `file`…). */
  readonly calls: string[] = [];
  readonly files = new Map<string, Buffer>();
  webhook: { url: string; secret_token?: string } | null = null;
  private server!: Server;
  private waiters: (() => void)[] = [];
  private nextUpdate = 1000;
  private nextMessage = 1;
  base = '';

  constructor(readonly token: string, readonly username = 'haul_test_bot') {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.answer(req).then(({ status, body, raw }) => {
      res.writeHead(status, { 'content-type': raw ? 'application/octet-stream' : 'application/json' });
      res.end(raw ?? JSON.stringify(body));
    }));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.base = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    this.waiters.splice(0).forEach((w) => w());
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** A private message from `from`: text, or a document (its bytes kept for getFile). Answers the update id. */
  send(from: StandInUser, content: { text?: string; document?: { name: string; bytes: Buffer; mime?: string } }): number {
    const message: Record<string, unknown> = { message_id: this.nextMessage++, date: Math.floor(Date.now() / 1000), chat: { id: from.id, type: 'private', first_name: from.first_name }, from: { ...from, is_bot: false } };
    if (content.text !== undefined) {
      message.text = content.text;
      if (content.text.startsWith('/')) message.entities = [{ type: 'bot_command', offset: 0, length: content.text.split(/\s/)[0]!.length }];
    }
    if (content.document) {
      const fileId = `doc${this.nextMessage}`;
      this.files.set(fileId, content.document.bytes);
      message.document = { file_id: fileId, file_unique_id: `u${fileId}`, file_name: content.document.name, mime_type: content.document.mime ?? 'application/x-bittorrent', file_size: content.document.bytes.length };
    }
    const update_id = this.nextUpdate++;
    this.updates.push({ update_id, message });
    this.waiters.splice(0).forEach((w) => w());
    return update_id;
  }

  /** Messages the bot sent to `chatId`. */
  to(chatId: number): string[] {
    return this.sent.filter((m) => m.chat_id === String(chatId)).map((m) => m.text);
  }

  /** Waits for the bot's `n`th message to `chatId` (1-based), and answers it. */
  async nth(chatId: number, n: number, timeoutMs = 15_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    while (this.to(chatId).length < n) {
      if (Date.now() > until) throw new Error(`no message #${n} to ${chatId}; got: ${JSON.stringify(this.to(chatId))}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.to(chatId)[n - 1]!;
  }

  private async answer(req: IncomingMessage): Promise<{ status: number; body?: unknown; raw?: Buffer }> {
    const url = new URL(req.url ?? '/', 'http://x');
    const file = /^\/file\/bot([^/]+)\/documents\/(.+)$/.exec(url.pathname);
    if (file) {
      this.calls.push('file');
      const bytes = file[1] === this.token ? this.files.get(file[2]!) : undefined;
      return bytes ? { status: 200, raw: bytes } : { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
    }
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
    if (!m) return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
    if (m[1] !== this.token) return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    const method = m[2]!;
    this.calls.push(method);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString();
    const p = (text ? JSON.parse(text) : Object.fromEntries(url.searchParams)) as Record<string, any>;
    const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });
    switch (method) {
      case 'getMe':
        return ok({ id: 4242, is_bot: true, first_name: 'Haul', username: this.username, can_join_groups: false, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'deleteWebhook':
        this.webhook = null;
        return ok(true);
      case 'setWebhook':
        this.webhook = { url: p.url, secret_token: p.secret_token };
        return ok(true);
      case 'getUpdates': {
        const offset = Number(p.offset ?? 0);
        const pending = () => this.updates.filter((u) => u.update_id >= offset).slice(0, Number(p.limit ?? 100));
        const timeout = Number(p.timeout ?? 0);
        if (pending().length === 0 && timeout > 0) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, timeout * 1000);
            this.waiters.push(() => (clearTimeout(t), resolve()));
          });
        }
        return ok(pending());
      }
      case 'sendMessage':
        this.sent.push({ chat_id: String(p.chat_id), text: String(p.text) });
        return ok({ message_id: this.nextMessage++, date: Math.floor(Date.now() / 1000), chat: { id: Number(p.chat_id), type: 'private' }, text: p.text });
      case 'getFile': {
        const bytes = this.files.get(String(p.file_id));
        if (!bytes) return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' } };
        return ok({ file_id: p.file_id, file_unique_id: `u${p.file_id}`, file_size: bytes.length, file_path: `documents/${p.file_id}` });
      }
      default:
        return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found: method not found' } };
    }
  }
}
