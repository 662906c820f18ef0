/** The payment providers the operator set up, by id (payment-config.ts): none, the sandbox, Stripe, PayPal. */
import type { Config } from '../config.js';
import type { PaymentProvider } from './provider.js';
import { PaypalProvider } from './paypal-provider.js';
import { SandboxProvider } from './sandbox-provider.js';
import { StripeProvider } from './stripe-provider.js';

const made = new WeakMap<Config, Map<string, PaymentProvider>>();

export function paymentProviders(config: Config): Map<string, PaymentProvider> {
  let providers = made.get(config);
  if (!providers) {
    providers = new Map();
    if (config.stripe) providers.set('stripe', new StripeProvider(config.stripe));
    if (config.paypal) providers.set('paypal', new PaypalProvider(config.paypal));
    if (config.paySandbox) providers.set('sandbox', new SandboxProvider());
    made.set(config, providers);
  }
  return providers;
}
