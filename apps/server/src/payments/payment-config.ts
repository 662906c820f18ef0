/**
 * Which payment providers the operator set up (Stripe, PayPal, the sandbox). None by default: goods are then granted only with redeem codes. The
 * sandbox (a checkout that takes no money) is one setting away and never on by default.
 */
export interface StripeConfig {
  /** sk_live_… or sk_test_…: from the environment only. */
  secretKey: string;
  /** whsec_…: the key Stripe signs webhook events with. */
  webhookSecret: string;
  /** Another address for Stripe's API (a local server that speaks it); null for api.stripe.com. */
  apiBase: URL | null;
}

export interface PaypalConfig {
  clientId: string;
  /** From the environment only. */
  clientSecret: string;
  /** The id PayPal gave the webhook pointed at /vip/v1/pay/webhook/paypal: its notifications are verified against it. */
  webhookId: string;
  /** https://api-m.paypal.com, https://api-m.sandbox.paypal.com, or a local server that speaks the API. */
  apiBase: URL;
}

export interface PaymentConfig {
  paySandbox: boolean;
  stripe: StripeConfig | null;
  paypal: PaypalConfig | null;
}

function paypalConfig(get: (k: string) => string | undefined): PaypalConfig | null {
  const clientId = get('HAUL_PAYPAL_CLIENT_ID') || '';
  const clientSecret = get('HAUL_PAYPAL_CLIENT_SECRET') || '';
  const webhookId = get('HAUL_PAYPAL_WEBHOOK_ID') || '';
  if (!clientId && !clientSecret && !webhookId) return null;
  if (!clientId || !clientSecret || !webhookId) throw new Error('PayPal needs HAUL_PAYPAL_CLIENT_ID, HAUL_PAYPAL_CLIENT_SECRET and HAUL_PAYPAL_WEBHOOK_ID');
  const base = get('HAUL_PAYPAL_API_BASE') || 'https://api-m.paypal.com';
  if (!URL.canParse(base)) throw new Error('HAUL_PAYPAL_API_BASE must be an http(s) address, e.g. https://api-m.sandbox.paypal.com');
  return { clientId, clientSecret, webhookId, apiBase: new URL(base) };
}

export function paymentConfig(get: (k: string) => string | undefined, bool: (v: string | undefined, fallback: boolean) => boolean): PaymentConfig {
  const secretKey = get('HAUL_STRIPE_SECRET_KEY') || '';
  const webhookSecret = get('HAUL_STRIPE_WEBHOOK_SECRET') || '';
  if (!!secretKey !== !!webhookSecret) throw new Error('Stripe needs both HAUL_STRIPE_SECRET_KEY and HAUL_STRIPE_WEBHOOK_SECRET');
  const base = get('HAUL_STRIPE_API_BASE') || '';
  if (base && !URL.canParse(base)) throw new Error('HAUL_STRIPE_API_BASE must be an http(s) address');
  return {
    paySandbox: bool(get('HAUL_PAY_SANDBOX'), false),
    stripe: secretKey ? { secretKey, webhookSecret, apiBase: base ? new URL(base) : null } : null,
    paypal: paypalConfig(get),
  };
}
