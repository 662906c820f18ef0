/** PayPal's REST API as the adapter calls it: an OAuth client-credentials token kept until near its end, JSON calls with a time limit. */
import type { PaypalConfig } from './payment-config.js';

const TIMEOUT_MS = 20_000;

/** A call PayPal answered with an error; `status` says which (404: no such resource). */
export class PaypalError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class PaypalClient {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(private readonly config: PaypalConfig) {}

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 60_000) return this.token.value;
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const res = await fetch(new URL('/v1/oauth2/token', this.config.apiBase), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new PaypalError(res.status, `PayPal refused the credentials (${res.status})`);
    const body = (await res.json()) as { access_token: string; expires_in: number };
    this.token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return body.access_token;
  }

  /** One API call; `requestId` makes a retried call do its work once (PayPal-Request-Id). */
  async call<T>(method: string, path: string, body?: unknown, requestId?: string): Promise<T> {
    const res = await fetch(new URL(path, this.config.apiBase), {
      method,
      headers: {
        authorization: `Bearer ${await this.accessToken()}`,
        'content-type': 'application/json',
        prefer: 'return=representation',
        ...(requestId ? { 'paypal-request-id': requestId } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) {
      const err = (() => {
        try {
          return JSON.parse(text) as { name?: string; message?: string };
        } catch {
          return {};
        }
      })();
      throw new PaypalError(res.status, `PayPal answered ${res.status}${err.name ? ` ${err.name}` : ''}${err.message ? `: ${err.message}` : ''}`);
    }
    return (text ? JSON.parse(text) : {}) as T;
  }
}
