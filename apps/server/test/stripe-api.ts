/**
 * A local server speaking the parts of Stripe's documented API Haul's Stripe adapter calls (Checkout Sessions,
 * Subscriptions, Refunds), so the official `stripe` library runs unchanged against it; and events signed the way Stripe
 * signs webhooks, with the library's own test-header helper.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface StripeCall {
  method: string;
  path: string;
  form: URLSearchParams;
  authorization: string;
  idempotencyKey: string;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  client_reference_id: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  url: string;
  success_url: string;
  cancel_url: string;
  payment_intent: string | null;
  subscription: string | null;
  invoice: string | null;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

export class StripeApi {
  calls: StripeCall[] = [];
  sessions = new Map<string, FakeSession>();
  private server: Server;
  constructor() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0]!;
        const form = new URLSearchParams(body);
        this.calls.push({ method: req.method!, path, form, authorization: String(req.headers.authorization ?? ''), idempotencyKey: String(req.headers['idempotency-key'] ?? '') });
        const send = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json', 'request-id': rid('req') });
          res.end(JSON.stringify(json));
        };
        if (req.method === 'POST' && path === '/v1/checkout/sessions') {
          const id = rid('cs_test');
          const s: FakeSession = {
            id,
            object: 'checkout.session',
            mode: form.get('mode') ?? 'payment',
            status: 'open',
            payment_status: 'unpaid',
            client_reference_id: form.get('client_reference_id'),
            metadata: { order_id: form.get('metadata[order_id]') ?? '' },
            amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
            currency: form.get('line_items[0][price_data][currency]') ?? '',
            url: `https://checkout.stripe.test/c/pay/${id}`,
            success_url: form.get('success_url') ?? '',
            cancel_url: form.get('cancel_url') ?? '',
            payment_intent: null,
            subscription: null,
            invoice: null,
          };
          this.sessions.set(id, s);
          return send(200, s);
        }
        const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
        if (req.method === 'GET' && session) {
          const s = this.sessions.get(session[1]!);
          return s ? send(200, s) : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
        }
        const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
        if (req.method === 'POST' && sub) return send(200, { id: sub[1], object: 'subscription', cancel_at_period_end: form.get('cancel_at_period_end') === 'true', status: 'active' });
        if (req.method === 'POST' && path === '/v1/refunds') return send(200, { id: rid('re'), object: 'refund', payment_intent: form.get('payment_intent'), status: 'succeeded' });
        send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  /** The customer paid: the session completes, as Stripe's checkout would make it. */
  pay(id: string, extra: Partial<FakeSession> = {}): FakeSession {
    const s = this.sessions.get(id)!;
    Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: s.mode === 'payment' ? rid('pi') : null, subscription: s.mode === 'subscription' ? rid('sub') : null, invoice: s.mode === 'subscription' ? rid('in') : null }, extra);
    return s;
  }
}

const signer = new Stripe('sk_test_signer');

/** An event as Stripe posts it, and its Stripe-Signature header (at `timestamp`, seconds; now by default). */
export function signedEvent(secret: string, type: string, object: unknown, opts: { id?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify({ id: opts.id ?? rid('evt'), object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), type, data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null } });
  const header = signer.webhooks.generateTestHeaderString({ payload, secret, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) });
  return { payload, header };
}
