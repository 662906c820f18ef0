/**
 * A real HTTP server on loopback standing in for an operator's SMS bridge: it receives Haul's webhook requests and
 * keeps each one's raw body and signature, for reading codes and checking signatures.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ReceivedSms {
  to: string;
  body: string;
  /** The request body exactly as it came. */
  raw: string;
  signature: string | undefined;
  contentType: string | undefined;
}

export class SmsInbox {
  readonly received: ReceivedSms[] = [];
  /** The status answered; set it to make the bridge fail. */
  status = 200;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (req.method === 'POST' && this.status >= 200 && this.status < 300) {
          const json = JSON.parse(raw) as { to: string; body: string };
          const sig = req.headers['x-haul-signature'];
          this.received.push({ to: json.to, body: json.body, raw, signature: Array.isArray(sig) ? sig[0] : sig, contentType: req.headers['content-type'] });
        }
        res.statusCode = this.status;
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  }

  /** Messages to `to` (E.164), oldest first. */
  to(to: string): ReceivedSms[] {
    return this.received.filter((m) => m.to === to);
  }

  /** Waits for the `n`-th message (1-based) to `to`. */
  async nth(to: string, n: number, ms = 10_000): Promise<ReceivedSms> {
    const end = Date.now() + ms;
    while (this.to(to).length < n) {
      if (Date.now() > end) throw new Error(`no text message #${n} to ${to} within ${ms} ms`);
      await sleep(20);
    }
    return this.to(to)[n - 1]!;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
