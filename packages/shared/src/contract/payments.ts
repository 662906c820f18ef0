/**
 * Paying for goods (seed 001 §7 "payment"): start an order or a subscription with a provider, follow its status, cancel
 * a subscription. An order is fulfilled only from the provider's verified word (its signed notification, or its answer
 * when asked), never from the browser's.
 */
import { Type, type Static } from '@sinclair/typebox';
import { route } from './define.js';
import { GRANT_KINDS } from '../rules/grants.js';
import { NullableObject, StringEnum, TimeString } from './schema-kit.js';
import { SubscriptionSchema } from './plans.js';

const tag = 'Payments';

export const ORDER_STATUSES = ['pending', 'succeed', 'failed', 'close', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const OrderSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  title: Type.String({ description: "The product's title; its id when the operator no longer sells it." }),
  provider: Type.String(),
  status: StringEnum(ORDER_STATUSES, { description: 'pending until the provider says; succeed once granted; close when canceled or expired (see expired); refunded when taken back.' }),
  price: Type.String({ description: 'What was charged, a plain decimal ("9.99").' }),
  currency: Type.String(),
  subscriber_type: StringEnum(['month', 'year', 'none'] as const),
  task_id: Type.String({ description: "The task that failed on a limit and goes on once paid; '' when none." }),
  expired: Type.Boolean({
    description: 'Closed because it was not paid within 30 minutes of its start (or the provider let its checkout expire): a new order of the product tries again. A payment the provider still takes later fulfils it.',
  }),
  created_at: TimeString(),
  fulfilled_at: TimeString("'' until granted."),
});
export type Order = Static<typeof OrderSchema>;

export const PaySettingsSchema = Type.Object({
  providers: Type.Array(
    Type.Object({
      id: Type.String({ description: 'The {provider} of POST /vip/v1/pay/order/{provider}.' }),
      name: Type.String(),
      recurring: Type.Boolean({ description: 'Whether it takes subscriptions.' }),
      sandbox: Type.Boolean({ description: 'A checkout for trying plans without money.' }),
    }),
    { description: 'The providers the operator set up; none means goods can only be granted with redeem codes.' },
  ),
});
export type PaySettings = Static<typeof PaySettingsSchema>;

const subscriptionStatus = {
  subscribed: Type.Boolean({ description: 'A subscription renews it.' }),
  subscription: NullableObject(SubscriptionSchema),
};
const SubscriptionStatusSchema = Type.Object(subscriptionStatus);

const OrderBody = Type.Object({
  product_id: Type.String({ maxLength: 64 }),
  pay_method_id: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored: the provider offers its own methods.' })),
  task_id: Type.Optional(Type.String({ maxLength: 64, description: 'A task of yours that failed on a limit: it goes on once paid.' })),
  return_url: Type.Optional(Type.String({ maxLength: 2000, description: 'A path on this site to come back to after paying; other sites are refused.' })),
  cancel_url: Type.Optional(Type.String({ maxLength: 2000, description: 'A path on this site to come back to when the payment is abandoned.' })),
  from: Type.Optional(Type.String({ maxLength: 64, description: 'Where the purchase started (a limit dialog type); kept for nothing but the reader.' })),
});
const StartAnswer = Type.Object({
  order_id: Type.String(),
  redirect_url: Type.String({ description: "The provider's checkout page to send the person to." }),
  status: StringEnum(ORDER_STATUSES),
});
const ProviderParam = Type.Object({ provider: Type.String({ maxLength: 32 }) });
const startErrors = {
  invalid_argument: 'The return or cancel address is not on this site.',
  not_found: 'No such product on sale, or no such provider set up.',
  failed_precondition:
    'The product is renewed (use POST /vip/v1/pay/subscription/{provider}) or paid once (use /order), the provider does not take subscriptions, or a subscription of yours renews this kind of goods already.',
  unavailable: 'The provider could not be reached; nothing was charged.',
} as const;

export const paymentsRoutes = {
  paySettings: route({
    method: 'GET',
    path: '/vip/v1/pay/settings',
    tag,
    summary: 'Payment providers',
    description: 'The providers this server takes payments with.',
    auth: 'public',
    response: PaySettingsSchema,
    errors: {},
  }),
  createOrder: route({
    method: 'POST',
    path: '/vip/v1/pay/order/:provider',
    tag,
    summary: 'Pay once',
    description: 'Starts an order for a product paid once and answers the checkout page to send the person to. Nothing is granted until the provider confirms the payment.',
    auth: 'user',
    params: ProviderParam,
    body: OrderBody,
    response: StartAnswer,
    errors: startErrors,
    example: { product_id: 'premium-month', return_url: '/payment' },
  }),
  createSubscription: route({
    method: 'POST',
    path: '/vip/v1/pay/subscription/:provider',
    tag,
    summary: 'Subscribe',
    description: 'Starts a subscription to a product renewed monthly or yearly; each renewal the provider confirms grants the product again.',
    auth: 'user',
    params: ProviderParam,
    body: OrderBody,
    response: StartAnswer,
    errors: startErrors,
    example: { product_id: 'premium-year-auto', return_url: '/payment' },
  }),
  payStatus: route({
    method: 'GET',
    path: '/vip/v1/pay/payStatus/:orderId',
    tag,
    summary: 'Order status',
    description: 'Where an order of yours stands. A pending order is checked with its provider (when the provider can be asked) before answering, and closes as expired when still unpaid 30 minutes after it started.',
    auth: 'user',
    params: Type.Object({ orderId: Type.String({ maxLength: 64 }) }),
    query: Type.Object({ task_id: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored: the order knows its task.' })) }),
    response: Type.Object({ status: StringEnum(ORDER_STATUSES), order: OrderSchema }),
    errors: { not_found: 'No such order of yours.' },
  }),
  listOrders: route({
    method: 'GET',
    path: '/vip/v1/pay/orders',
    tag,
    summary: 'Your orders',
    description: 'Your orders, newest first, renewals of subscriptions included.',
    auth: 'user',
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) }),
    response: Type.Object({ orders: Type.Array(OrderSchema) }),
    errors: {},
  }),
  subscriptions: route({
    method: 'GET',
    path: '/vip/v1/pay/subscription',
    tag,
    summary: 'Your subscriptions',
    description: 'Your subscriptions, active ones first.',
    auth: 'user',
    response: Type.Object({ subscriptions: Type.Array(SubscriptionSchema) }),
    errors: {},
  }),
  subscriptionStatus: route({
    method: 'GET',
    path: '/vip/v1/pay/subscriptionStatus',
    tag,
    summary: 'Premium subscription status',
    description: 'Whether a premium subscription of yours renews (a canceled one runs to its end but renews no more). The goods page offers no second one while it does.',
    auth: 'user',
    response: SubscriptionStatusSchema,
    errors: {},
  }),
  allSubscriptionStatus: route({
    method: 'GET',
    path: '/vip/v1/pay/allSubscriptionStatus',
    tag,
    summary: 'Subscription status of every kind of goods',
    description: 'For premium, storage and transfer: whether a subscription of yours renews it. A second subscription of a kind that renews already is refused.',
    auth: 'user',
    response: Type.Object({ items: Type.Array(Type.Object({ kind: StringEnum(GRANT_KINDS), ...subscriptionStatus })) }),
    errors: {},
  }),
  cancelSubscription: route({
    method: 'POST',
    path: '/vip/v1/pay/cancelSubscription',
    tag,
    summary: 'Cancel a subscription',
    description: 'Stops the next renewal; what was paid for runs to the end of its period.',
    auth: 'user',
    body: Type.Object({ subscription_id: Type.String({ maxLength: 64 }), pay_method_id: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored.' })) }),
    response: SubscriptionSchema,
    errors: {
      not_found: 'No such subscription of yours.',
      failed_precondition: 'The subscription is not active.',
      unavailable: 'The provider could not be reached; the subscription is unchanged.',
    },
    example: { subscription_id: '…' },
  }),
  paymentWebhook: route({
    method: 'POST',
    path: '/vip/v1/pay/webhook/:provider',
    tag,
    summary: "A provider's notification",
    description:
      "Where a payment provider posts what happened (Stripe: point a webhook endpoint here). The body is read as the provider's raw bytes and trusted only when its signature checks out; each event is applied once, however often it is sent.",
    auth: 'public',
    params: ProviderParam,
    response: Type.Object({
      received: Type.Boolean(),
      results: Type.Array(StringEnum(['applied', 'replayed', 'ignored'] as const), { description: 'What each event of the notification did.' }),
    }),
    errors: {
      invalid_argument: 'The signature, its age or the body is wrong: nothing was applied.',
      not_found: 'No such provider takes notifications on this server.',
    },
  }),
  sandboxCheckout: route({
    method: 'GET',
    path: '/vip/v1/pay/sandbox/:orderId',
    tag,
    summary: 'Sandbox checkout: the order',
    description: 'What the sandbox checkout page shows. The sandbox provider is for trying plans without money and is off unless the operator turns it on.',
    auth: 'user',
    params: Type.Object({ orderId: Type.String({ maxLength: 64 }) }),
    response: Type.Object({ order: OrderSchema }),
    errors: { not_found: 'No such sandbox order of yours, or the sandbox is off.' },
  }),
  sandboxPay: route({
    method: 'POST',
    path: '/vip/v1/pay/sandbox/:orderId',
    tag,
    summary: 'Sandbox checkout: pay, decline or cancel',
    description: "The sandbox provider's own decision, as a card network's would be: pay fulfils the order, decline fails it, cancel closes it.",
    auth: 'user',
    params: Type.Object({ orderId: Type.String({ maxLength: 64 }) }),
    body: Type.Object({ outcome: StringEnum(['pay', 'decline', 'cancel'] as const) }),
    response: Type.Object({ status: StringEnum(ORDER_STATUSES) }),
    errors: {
      not_found: 'No such sandbox order of yours, or the sandbox is off.',
      failed_precondition: 'The order is no longer waiting for payment.',
    },
    example: { outcome: 'pay' },
  }),
};
