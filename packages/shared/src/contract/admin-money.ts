/**
 * Plans and money in the operator's console (`/admin/v1/products|orders|codes`): the whole catalogue, on sale or
 * retired, and taking a product off sale; every order, found by the buyer's address and status, and refunding one;
 * redeem codes listed (never the codes themselves), made (shown once) and revoked. Each change is in the audit log.
 * Putting a retired product back on sale is `adminSaveProduct` (POST /admin/v1/products) again.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { GrantItemSchema } from './plans.js';
import { ORDER_STATUSES } from './payments.js';
import { NullableObject, StringEnum, TimeString } from './schema-kit.js';

const tag = 'Administration';
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Page = { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })), page_token: Type.Optional(Type.String({ maxLength: 2000 })) };

/** Most codes one request makes: enough for a giveaway, few enough to show on one screen and copy. */
export const MAX_CODES_PER_REQUEST = 500;

export const AdminProductSchema = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'Which page offers it: premium, storage or transfer.' }),
  title: Type.String(),
  grant: Type.String({ description: 'What one payment grants, as a grant spec (premium:30d, storage:100GB/30d).' }),
  grants: Type.Array(GrantItemSchema, { description: 'The same, item by item.' }),
  price: Type.String({ description: 'A plain decimal with no thousands separators ("9.99").' }),
  currency: Type.String({ description: 'ISO 4217, upper case.' }),
  interval: StringEnum(['', 'month', 'year'] as const, { description: "How often it renews; '' when paid once." }),
  position: Type.Integer({ description: 'Its place on the goods pages, lower first.' }),
  on_sale: Type.Boolean({ description: 'false once taken off sale: its orders and subscriptions keep what they sold.' }),
  created_time: TimeString('When it was last saved.'),
});

export const AdminOrderSchema = Type.Object({
  id: Type.String(),
  created_time: TimeString(),
  user_id: Type.String({ description: 'The buyer.' }),
  email: Type.String({ description: "The buyer's address ('' once the account is gone)." }),
  product_id: Type.String(),
  title: Type.String({ description: "The product's title; its id when the catalogue no longer has it." }),
  grant: Type.String({ description: 'What the order grants (copied from the product when made).' }),
  grants: Type.Array(GrantItemSchema),
  amount: Type.String({ description: 'What was charged, a plain decimal ("9.99").' }),
  currency: Type.String(),
  provider: Type.String(),
  status: StringEnum(ORDER_STATUSES, { description: 'pending, succeed (paid and granted), failed, close (canceled or expired) or refunded.' }),
  fulfilled_time: TimeString("When it was granted ('' until then)."),
  subscription: NullableObject(
    Type.Object(
      {
        id: Type.String(),
        status: StringEnum(['active', 'canceled', 'ended'] as const),
        current_period_end: TimeString(),
      },
      { description: 'The subscription it started or renewed; null for a one-time purchase.' },
    ),
  ),
});

export const AdminCodeSchema = Type.Object({
  id: Type.String({ description: 'The batch row; the code itself is never kept, only its hash.' }),
  grant: Type.String({ description: 'What redeeming it grants, as a grant spec.' }),
  grants: Type.Array(GrantItemSchema),
  note: Type.String(),
  max_uses: Type.Integer({ description: 'How many accounts may redeem it.' }),
  used_count: Type.Integer({ description: 'How many have.' }),
  expires_time: TimeString("When it stops redeeming ('' for never)."),
  created_time: TimeString(),
  revoked_time: TimeString("When an operator revoked it ('' while it stands)."),
});

export const adminMoneyRoutes = {
  adminListProducts: route({
    method: 'GET',
    path: '/admin/v1/products',
    tag,
    summary: 'Every product, on sale or not',
    description: 'The whole catalogue in the order of the goods pages (position, then age): products on sale and those taken off sale, which orders still name.',
    auth: 'admin',
    response: Type.Object({ products: Type.Array(AdminProductSchema) }),
    errors: {},
  }),
  adminRetireProduct: route({
    method: 'DELETE',
    path: '/admin/v1/products/:id',
    tag,
    summary: 'Take a product off sale',
    description: 'The goods pages stop offering it at once and new orders of it are refused; orders and subscriptions keep what they sold. Saving it again (POST /admin/v1/products) puts it back on sale. Recorded in the audit log.',
    auth: 'admin',
    params: IdParams,
    response: AdminProductSchema,
    errors: { not_found: 'No product has that id.' },
  }),
  adminListOrders: route({
    method: 'GET',
    path: '/admin/v1/orders',
    tag,
    summary: 'Orders, newest first',
    description: "Every account's orders, newest first, a page at a time; of buyers whose address is `email` or starts with it, and of one status. Pending checkouts older than 30 minutes are closed first, as the buyer's own list does.",
    auth: 'admin',
    query: Type.Object({
      email: Type.Optional(Type.String({ maxLength: 254, description: "The buyer's address, or its start." })),
      status: Type.Optional(StringEnum(ORDER_STATUSES)),
      ...Page,
    }),
    response: Type.Object({ orders: Type.Array(AdminOrderSchema), next_page_token: Type.String({ description: "'' on the last page." }) }),
    errors: { invalid_argument: 'The page token belongs to another listing or is damaged.' },
  }),
  adminRefundOrder: route({
    method: 'POST',
    path: '/admin/v1/orders/:id/refund',
    tag,
    summary: 'Refund an order',
    description: "Asks the order's provider to give the money back, then takes back what the order granted at once (premium chained after it moves forward); the provider's own notice later changes nothing. Only a paid order. Recorded in the buyer's audit log.",
    auth: 'admin',
    params: IdParams,
    response: AdminOrderSchema,
    errors: {
      not_found: 'No order has that id.',
      failed_precondition: 'The order is not paid (pending, failed, closed) or is refunded already, or its provider is no longer set up.',
      unavailable: 'The provider refused the refund or could not be reached; the description says why. Nothing changed.',
    },
  }),
  adminListCodes: route({
    method: 'GET',
    path: '/admin/v1/codes',
    tag,
    summary: 'Redeem codes, newest first',
    description: 'The codes made, a page at a time: what each grants, its note, uses and expiry, and whether it was revoked. Never the code: only its hash is kept.',
    auth: 'admin',
    query: Type.Object(Page),
    response: Type.Object({ codes: Type.Array(AdminCodeSchema), next_page_token: Type.String({ description: "'' on the last page." }) }),
    errors: { invalid_argument: 'The page token belongs to another listing or is damaged.' },
  }),
  adminCreateCodes: route({
    method: 'POST',
    path: '/admin/v1/codes',
    tag,
    summary: 'Make redeem codes',
    description: `Makes \`count\` (1 to ${MAX_CODES_PER_REQUEST}) codes, each granting \`grant\` to up to \`max_uses\` accounts, once per account, until \`expires_days\` from now (never when left out). The answer is the only time the codes are seen: only their hashes are kept. Recorded in the audit log (without the codes).`,
    auth: 'admin',
    body: Type.Object({
      grant: Type.String({ minLength: 1, maxLength: 200, description: 'The grant spec, like premium:30d or storage:100GB/365d.' }),
      count: Type.Integer({ minimum: 1, maximum: MAX_CODES_PER_REQUEST }),
      max_uses: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'How many accounts may redeem each code.' }),
      expires_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'Days the codes redeem; never expire when left out.' })),
      note: Type.Optional(Type.String({ maxLength: 200, description: 'What they are for, shown in the list.' })),
    }),
    response: Type.Object({
      codes: Type.Array(Type.String(), { description: 'The codes, in groups of four (7K2M-Q9TX-4WPB-H3NA): shown this once.' }),
      grant: Type.String({ description: 'The grant spec as kept (normalised).' }),
      ids: Type.Array(Type.String(), { description: 'Their rows in the list, in the same order.' }),
    }),
    errors: { invalid_argument: 'The spec is not a grant (the message says which part and why).' },
    example: { grant: 'premium:30d', count: 10, max_uses: 1, expires_days: 90, note: 'Spring giveaway' },
  }),
  adminRevokeCode: route({
    method: 'POST',
    path: '/admin/v1/codes/:id/revoke',
    tag,
    summary: 'Revoke a redeem code',
    description: 'The code stops redeeming at once (a person trying it hears what an expired code answers); what it granted before stays. Revoking it again changes nothing. Recorded in the audit log.',
    auth: 'admin',
    params: IdParams,
    response: AdminCodeSchema,
    errors: { not_found: 'No code has that id.' },
  }),
};
