/**
 * A local server speaking the parts of PayPal's documented REST API the adapter calls: OAuth client credentials, Orders
 * v2 (create, read, capture), capture refunds, and webhook signature verification, which PayPal itself answers. A
 * notification "signed" here verifies when its transmission signature is `sig:<transmission id>` for our webhook id.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PaypalCall {
  method: string;
  path: string;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

interface FakeOrder {
  id: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  custom_id: string;
  amount: { currency_code: string; value: string };
  capture?: { id: string; status: string; amount: { currency_code: string; value: string }; custom_id: string };
}

const rid = (prefix: string) => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

export class PaypalApi {
  calls: PaypalCall[] = [];
  orders = new Map<string, FakeOrder>();
  private server: Server;
  constructor(
    private readonly clientId: string,
    private readonly secret: string,
    private readonly webhookId: string,
  ) {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0]!;
        let body: any = raw;
        try {
          body = raw && req.headers['content-type']?.includes('json') ? JSON.parse(raw) : raw;
        } catch {}
        this.calls.push({ method: req.method!, path, body, headers: req.headers });
        const send = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (path === '/v1/oauth2/token') {
          const ok = req.headers.authorization === `Basic ${Buffer.from(`${this.clientId}:${this.secret}`).toString('base64')}`;
          return ok ? send(200, { access_token: 'A21-token', token_type: 'Bearer', expires_in: 32400 }) : send(401, { error: 'invalid_client' });
        }
        if (req.headers.authorization !== 'Bearer A21-token') return send(401, { name: 'AUTHENTICATION_FAILURE', message: 'no token' });
        if (req.method === 'POST' && path === '/v2/checkout/orders') {
          const unit = body.purchase_units[0];
          const o: FakeOrder = { id: rid('5O'), status: 'CREATED', custom_id: unit.custom_id, amount: unit.amount };
          this.orders.set(o.id, o);
          return send(200, { id: o.id, status: o.status, links: [{ rel: 'payer-action', href: `https://www.paypal.test/checkoutnow?token=${o.id}` }] });
        }
        const order = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
        if (order) {
          const o = this.orders.get(order[1]!);
          if (!o) return send(404, { name: 'RESOURCE_NOT_FOUND' });
          if (order[2] && req.method === 'POST') {
            if (o.status !== 'APPROVED' && o.status !== 'COMPLETED') return send(422, { name: 'UNPROCESSABLE_ENTITY', message: 'ORDER_NOT_APPROVED' });
            o.capture ??= { id: rid('CAP'), status: 'COMPLETED', amount: o.amount, custom_id: o.custom_id };
            o.status = 'COMPLETED';
          }
          return send(200, this.present(o));
        }
        const refund = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
        if (req.method === 'POST' && refund) return send(201, { id: rid('RF'), status: 'COMPLETED' });
        if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
          const ok = body.webhook_id === this.webhookId && body.transmission_sig === `sig:${body.transmission_id}`;
          return send(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
        }
        send(404, { name: 'NOT_FOUND', message: `${req.method} ${path}` });
      });
    });
  }

  private present(o: FakeOrder) {
    return { id: o.id, status: o.status, purchase_units: [{ custom_id: o.custom_id, amount: o.amount, payments: o.capture ? { captures: [o.capture] } : undefined }] };
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  /** The buyer approved the order at PayPal. */
  approve(id: string): void {
    this.orders.get(id)!.status = 'APPROVED';
  }

  /** A notification as PayPal posts it: the event and its transmission headers (`good` or not). */
  event(type: string, resource: unknown, good = true) {
    const transmission = rid('T');
    return {
      payload: JSON.stringify({ id: rid('WH-'), event_type: type, resource_type: 'checkout-order', resource }),
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': 'https://api.paypal.test/v1/notifications/certs/CERT-1',
        'paypal-transmission-id': transmission,
        'paypal-transmission-sig': good ? `sig:${transmission}` : 'forged',
        'paypal-transmission-time': new Date().toISOString(),
      },
    };
  }
}
