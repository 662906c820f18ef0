/**
 * Which payment providers the operator set up. None by default: goods are then granted only with redeem codes. The
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

export interface PaymentConfig {
  paySandbox: boolean;
  stripe: StripeConfig | null;
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
  };
}
