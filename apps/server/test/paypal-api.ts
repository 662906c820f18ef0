/**
 * A local server speaking the parts of PayPal's documented REST API the adapter calls: OAuth client credentials, Orders
 * v2 (create, read, capture), capture refunds, Catalog Products and Billing Plans, Subscriptions v1 (create, read,
 * cancel, transactions), sale refunds, and webhook signature verification, which PayPal itself answers. A
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

interface FakeSubscription {
  id: string;
  status: 'APPROVAL_PENDING' | 'ACTIVE' | 'CANCELLED';
  plan_id: string;
  custom_id: string;
  next_billing_time: string;
  sales: { id: string; status: string; amount_with_breakdown: { gross_amount: { currency_code: string; value: string } }; time: string }[];
}

const rid = (prefix: string) => `${prefix}${randomBytes(6).toString('hex').toUpperCase()}`;

export class PaypalApi {
  calls: PaypalCall[] = [];
  orders = new Map<string, FakeOrder>();
  products = new Map<string, { id: string; name: string }>();
  plans = new Map<string, { id: string; product_id: string; description: string; status: string; billing_cycles: any[] }>();
  subscriptions = new Map<string, FakeSubscription>();
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
        const sub = this.subscriptionCall(req.method!, path, (req.url ?? '').split('?')[1] ?? '', body, send);
        if (sub) return;
        const refund = /^\/v2\/payments\/captures\/([^/]+)\/refund$|^\/v1\/payments\/sale\/([^/]+)\/refund$/.exec(path);
        if (req.method === 'POST' && refund) return send(201, { id: rid('RF'), status: 'COMPLETED' });
        if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
          const ok = body.webhook_id === this.webhookId && body.transmission_sig === `sig:${body.transmission_id}`;
          return send(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
        }
        send(404, { name: 'NOT_FOUND', message: `${req.method} ${path}` });
      });
    });
  }

  /** Catalog products, billing plans and subscriptions; answers whether it handled the call. */
  private subscriptionCall(method: string, path: string, search: string, body: any, send: (status: number, json: unknown) => void): boolean {
    const q = new URLSearchParams(search);
    const product = /^\/v1\/catalogs\/products(?:\/([^/]+))?$/.exec(path);
    if (product) {
      if (method === 'GET' && product[1]) {
        const p = this.products.get(decodeURIComponent(product[1]));
        send(p ? 200 : 404, p ?? { name: 'RESOURCE_NOT_FOUND' });
      } else if (method === 'POST') {
        if (this.products.has(body.id)) send(422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'DUPLICATE_RESOURCE_IDENTIFIER' }] });
        else send(201, this.products.set(body.id, { id: body.id, name: body.name }).get(body.id));
      } else send(405, {});
      return true;
    }
    if (path === '/v1/billing/plans') {
      if (method === 'POST') {
        const plan = { id: rid('P-'), product_id: body.product_id, description: body.description, status: 'ACTIVE', billing_cycles: body.billing_cycles };
        this.plans.set(plan.id, plan);
        send(201, plan);
      } else {
        const all = [...this.plans.values()].filter((p) => p.product_id === q.get('product_id'));
        const size = Number(q.get('page_size') ?? 10);
        const page = Number(q.get('page') ?? 1);
        send(200, { plans: all.slice((page - 1) * size, page * size).map(({ billing_cycles: _, ...p }) => p) });
      }
      return true;
    }
    if (method === 'POST' && path === '/v1/billing/subscriptions') {
      if (!this.plans.has(body.plan_id)) {
        send(422, { name: 'UNPROCESSABLE_ENTITY', message: 'no such plan' });
        return true;
      }
      const s: FakeSubscription = { id: rid('I-'), status: 'APPROVAL_PENDING', plan_id: body.plan_id, custom_id: body.custom_id, next_billing_time: '', sales: [] };
      this.subscriptions.set(s.id, s);
      send(201, { ...this.presentSub(s), links: [{ rel: 'approve', href: `https://www.paypal.test/webapps/billing/subscriptions?ba_token=${s.id}` }] });
      return true;
    }
    const one = /^\/v1\/billing\/subscriptions\/([^/]+)(\/cancel|\/transactions)?$/.exec(path);
    if (!one) return false;
    const s = this.subscriptions.get(decodeURIComponent(one[1]!));
    if (!s) send(404, { name: 'RESOURCE_NOT_FOUND' });
    else if (one[2] === '/cancel' && method === 'POST') {
      s.status = 'CANCELLED';
      send(204, {});
    } else if (one[2] === '/transactions') send(200, { transactions: s.sales });
    else send(200, this.presentSub(s));
    return true;
  }

  private presentSub(s: FakeSubscription) {
    return { id: s.id, status: s.status, plan_id: s.plan_id, custom_id: s.custom_id, billing_info: s.next_billing_time ? { next_billing_time: s.next_billing_time } : {} };
  }

  /** PayPal bills the subscription (its first payment when it was just approved): the sale, as PAYMENT.SALE.* shows it. */
  bill(subscriptionId: string, nextBilling: Date) {
    const s = this.subscriptions.get(subscriptionId)!;
    const plan = this.plans.get(s.plan_id)!;
    const price = plan.billing_cycles[0].pricing_scheme.fixed_price as { currency_code: string; value: string };
    const sale = { id: rid('SALE'), status: 'COMPLETED', amount_with_breakdown: { gross_amount: price }, time: new Date().toISOString() };
    s.status = 'ACTIVE';
    s.next_billing_time = nextBilling.toISOString();
    s.sales.push(sale);
    return { id: sale.id, state: 'completed', amount: { total: price.value, currency: price.currency_code }, billing_agreement_id: s.id };
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
