/**
 * Plans (seed 001 §3, §7 "vip"): what premium an account has and what it was granted, the operator's goods, and redeem
 * codes. Paying for goods is in payments.ts.
 */
import { Type, type Static } from '@sinclair/typebox';
import { GRANT_KINDS } from '../rules/grants.js';
import { route } from './define.js';
import { DecimalString, NullableObject, StringEnum, TimeString } from './schema-kit.js';

const tag = 'Plans';

export const GrantItemSchema = Type.Object({
  kind: StringEnum(GRANT_KINDS, { description: 'premium (time), storage (added to the limit) or transfer (added to the monthly cloud download and download allowances).' }),
  bytes: DecimalString('Bytes of storage or transfer; 0 for premium.'),
  days: Type.Integer({ description: 'How many days it lasts; 0 for storage granted for good.' }),
});
export type GrantItem = Static<typeof GrantItemSchema>;

export const ProductSchema = Type.Object({
  id: Type.String(),
  kind: StringEnum(GRANT_KINDS, { description: 'Which page offers it: premium, storage or transfer.' }),
  title: Type.String(),
  grants: Type.Array(GrantItemSchema, { description: 'What one payment grants (each period, for a subscription).' }),
  price: Type.String({ description: 'The price in the currency\'s usual form, a plain decimal with no thousands separators ("9.99").' }),
  price_minor: Type.Integer({ description: 'The price in the currency\'s minor unit (cents).' }),
  currency: Type.String({ description: 'ISO 4217, upper case.' }),
  subscriber_type: StringEnum(['month', 'year', 'none'] as const, { description: 'How often a subscription renews; none when paid once.' }),
  subscription_mode: StringEnum(['recurring', 'one_time'] as const),
});
export type Product = Static<typeof ProductSchema>;

export const SubscriptionSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  title: Type.String({ description: "The product's title; its id when the operator no longer sells it." }),
  kind: StringEnum(GRANT_KINDS, { description: 'What it renews: premium, storage or transfer.' }),
  provider: Type.String(),
  status: StringEnum(['active', 'canceled', 'ended'] as const, { description: 'canceled: no further renewal; premium runs to the period end.' }),
  current_period_end: TimeString('When the paid period ends (and the next renewal is due, while active).'),
  created_at: TimeString(),
});
export type Subscription = Static<typeof SubscriptionSchema>;

const LiveGrant = Type.Object({
  kind: StringEnum(GRANT_KINDS),
  bytes: DecimalString('Bytes of storage or transfer; 0 for premium.'),
  starts_at: TimeString(),
  ends_at: TimeString("'' when for good."),
  source: StringEnum(['order', 'code', 'invite', 'admin', 'trial'] as const, { description: "trial: the premium days a new account gets once (the operator's trial_days)." }),
});

/** Time or bytes taken back from an account: a refunded order's grant (seed 000 notice premium-deduct). */
export const DeductionSchema = Type.Object({
  kind: StringEnum(GRANT_KINDS),
  days: Type.Integer({ description: 'Whole days of premium taken back (a part day counts as one); 0 for storage and transfer.' }),
  bytes: DecimalString('Bytes of storage or transfer taken back; 0 for premium.'),
  reason: StringEnum(['refund', 'revoked'] as const, { description: "refund: the order that granted it was refunded (by the operator or the provider); revoked: the operator took it back." }),
  title: Type.String({ description: "The refunded order's product title; '' when not from an order." }),
  at: TimeString('When it was taken back.'),
});
export type Deduction = Static<typeof DeductionSchema>;

export const VipInfoSchema = Type.Object({
  status: StringEnum(['ok', 'none'] as const, { description: 'ok while premium.' }),
  premium: Type.Boolean(),
  expire: TimeString("When premium ends; '' without premium."),
  surplus_day: Type.Integer({ description: 'Whole days of premium left (a part day counts as one).' }),
  vip_item: Type.Array(
    Type.Object({ type: Type.Literal('global'), status: StringEnum(['ok', 'none'] as const), expire: TimeString(), surplus_day: Type.Integer() }),
    { description: 'One global entry: this server has no regional premium.' },
  ),
  grants: Type.Array(LiveGrant, { description: 'Grants that count now or later (premium time chained after the current one), newest first.' }),
  free_vip: Type.Boolean({ description: "Premium now comes from the new account's trial alone: no bought, redeemed or rewarded premium runs now or after it." }),
  free_days: Type.Integer({ description: "Whole days left of the new account's trial (a part day counts as one); 0 without one running." }),
  subscription: NullableObject(SubscriptionSchema),
  deductions: Type.Array(DeductionSchema, {
    description: 'What was taken back from the account in the last 90 days (the premium-deduct notice), newest first, at most 20; only takings that had time or bytes left.',
  }),
});
export type VipInfo = Static<typeof VipInfoSchema>;

const GoodsSchema = Type.Object({
  sku_group: Type.Array(Type.Object({ kind: StringEnum(GRANT_KINDS), product_ids: Type.Array(Type.String()) }), { description: 'The products by page, in the operator\'s order.' }),
  products: Type.Array(ProductSchema),
  product_region: Type.String({ description: "Always '': prices are the same everywhere." }),
  user_region: Type.String({ description: "Always ''." }),
  activity_config: Type.Object({}, { description: 'Empty: no offers run beside the goods.' }),
});

const rewardTypes = Type.Optional(StringEnum(['space', 'transfer'] as const, { description: 'space: storage goods only; transfer: transfer goods only; absent: premium goods.' }));
const productsDescription =
  "The operator's goods on sale: premium time, storage and transfer packs, with prices in the operator's currency, paid once or renewed monthly or yearly. The same list for everyone, signed in or not.";

/** Bytes, or null where this server sets no limit. */
const BytesLimit = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: '^[0-9]+$', description: `${description} null: no limit.` });

export const PlanLimitsSchema = Type.Object({
  daily_cloud_downloads: Type.Integer({ description: 'Cloud downloads that may be added a day.' }),
  cloud_download_max_size: BytesLimit('The largest single cloud download, in bytes.'),
  monthly_upload_size: BytesLimit('Bytes that may be uploaded per calendar month.'),
  monthly_cloud_download_size: BytesLimit('Bytes that may be fetched by cloud download per calendar month (transfer packs add to it).'),
  monthly_download_size: BytesLimit("Bytes that may be downloaded through Haul's links per calendar month (transfer packs add to it)."),
  daily_download_size: BytesLimit("Bytes that may be downloaded through Haul's links per day."),
  max_video_resolution: Type.Integer({ description: "The tallest video rendition played (its shorter side, px); 0: every rendition." }),
  cloud_decompression: Type.Boolean({ description: 'Archives may be unpacked in the cloud.' }),
  webdav: Type.Boolean({ description: 'The drive may be opened over WebDAV (/dav/).' }),
});
export type PlanLimits = Static<typeof PlanLimitsSchema>;

export const plansRoutes = {
  vipInfo: route({
    method: 'GET',
    path: '/vip/v1/vip/info',
    tag,
    summary: 'Premium and grants',
    description: "Whether the account is premium and until when, the grants that count now (or later), and the subscription that renews it.",
    auth: 'user',
    response: VipInfoSchema,
    errors: {},
  }),
  upgradeToPro: route({
    method: 'GET',
    path: '/vip/v1/activity/upgradeToPro',
    tag,
    summary: 'The upgrade offer',
    description:
      "What the app's upgrade entry shows: premium and its days left, or else the operator's first premium product on sale and whether it can be paid for here (a provider is set up) or only redeemed with a code.",
    auth: 'user',
    response: Type.Object({
      premium: Type.Boolean(),
      expire: TimeString("When premium ends; '' without premium."),
      surplus_day: Type.Integer({ description: 'Whole days of premium left.' }),
      offer: NullableObject(ProductSchema),
      can_pay: Type.Boolean({ description: 'A payment provider is set up; without one, premium comes only from redeem codes and invitations.' }),
      free_vip: Type.Boolean({ description: "Premium now is the new account's trial alone (as in vip/info)." }),
      free_days: Type.Integer({ description: "Whole days left of the new account's trial; 0 without one running." }),
    }),
    errors: {},
  }),
  redeemCode: route({
    method: 'POST',
    path: '/vip/v1/order/activation-code',
    tag,
    summary: 'Redeem a code',
    description: 'Grants what the code grants (premium days, storage, transfer), once per account and no more times than the code allows; premium time adds to what is left.',
    auth: 'user',
    body: Type.Object({
      activation_code: Type.String({ maxLength: 64, description: 'The code, as printed: case, spaces and dashes do not matter.' }),
      data: Type.Optional(Type.String({ maxLength: 200, description: 'Ignored.' })),
      action: Type.Optional(Type.String({ maxLength: 64, description: 'Ignored.' })),
    }),
    response: Type.Object({ granted: Type.Array(GrantItemSchema), vip: VipInfoSchema }),
    errors: {
      invalid_argument: 'The code is empty or not of the form codes have.',
      not_found: 'No such code, or it has expired.',
      already_exists: 'This account redeemed this code already.',
      failed_precondition: 'The code was used as many times as it allows.',
      too_many_requests: 'Too many wrong codes: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { activation_code: 'HAUL-7K2M-Q9TX-4WPB' },
  }),
  listProducts: route({
    method: 'GET',
    path: '/vip/v1/pay/products',
    tag,
    summary: 'Goods on sale',
    description: productsDescription,
    auth: 'public',
    query: Type.Object({ reward_types: rewardTypes }),
    response: GoodsSchema,
    errors: {},
  }),
  queryProducts: route({
    method: 'POST',
    path: '/vip/v1/pay/products',
    tag,
    summary: 'Goods on sale (seed form)',
    description: `${productsDescription} The body's fields other than reward_types are accepted and ignored.`,
    auth: 'public',
    body: Type.Object({
      reward_types: rewardTypes,
      user_region: Type.Optional(Type.String({ maxLength: 64 })),
      scene: Type.Optional(Type.String({ maxLength: 64 })),
      accept_types: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
      accept_pay_methods: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
      share_id: Type.Optional(Type.String({ maxLength: 64 })),
      share_userid: Type.Optional(Type.String({ maxLength: 64 })),
    }),
    response: GoodsSchema,
    errors: {},
    example: { reward_types: 'space' },
  }),
  planLimits: route({
    method: 'GET',
    path: '/vip/v1/plans/limits',
    tag,
    summary: 'Free and premium compared',
    description:
      "What a free account and a premium one may do on this server, from the operator's settings: cloud downloads a day and the size of one, the monthly and daily transfer allowances, video quality, cloud decompression and WebDAV. Storage is not here: premium does not change it (storage packs do).",
    auth: 'user',
    response: Type.Object({ free: PlanLimitsSchema, premium: PlanLimitsSchema }),
    errors: {},
  }),
};
