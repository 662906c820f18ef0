/** Tables of plans and payments: see the 0017 migration. */

/** What an account was granted: premium time, storage or transfer, from an order, a code, an invitation or an operator. */
export interface PlanGrantsTable {
  id: string;
  user_id: string;
  kind: string;
  /** Premium: milliseconds; storage and transfer: bytes. */
  amount: number;
  starts_at: number;
  /** Null: for good. */
  ends_at: number | null;
  source: string;
  source_id: string;
  created_at: number;
  revoked_at: number | null;
}

export interface RedeemCodesTable {
  id: string;
  /** SHA-256 of the code's normal form: the code itself is shown once, when made. */
  code_hash: string;
  grant_spec: string;
  note: string;
  max_uses: number;
  used_count: number;
  expires_at: number | null;
  created_at: number;
  /** When an operator revoked it (null while it stands): it then redeems no more, as if expired. */
  revoked_at: number | null;
}

export interface RedeemCodeUsesTable {
  code_id: string;
  user_id: string;
  used_at: number;
}

export interface ProductsTable {
  id: string;
  kind: string;
  title: string;
  grant_spec: string;
  /** In the currency's minor unit (cents). */
  price_minor: number;
  currency: string;
  /** '' (paid once), month or year. */
  interval: string;
  active: number;
  position: number;
  created_at: number;
}

export interface OrdersTable {
  id: string;
  user_id: string;
  product_id: string;
  provider: string;
  /** pending, succeed, failed, close or refunded. */
  status: string;
  grant_spec: string;
  amount_minor: number;
  currency: string;
  interval: string;
  provider_ref: string;
  subscription_id: string;
  task_id: string;
  created_at: number;
  updated_at: number;
  fulfilled_at: number | null;
}

export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  received_at: number;
}

/** A provider payment that fulfilled an order: (provider, payment_ref) is unique, so each payment grants once. */
export interface PaymentFulfilmentsTable {
  provider: string;
  payment_ref: string;
  order_id: string;
  created_at: number;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  product_id: string;
  provider: string;
  provider_ref: string;
  /** active, canceled (runs to the period's end) or ended. */
  status: string;
  current_period_end: number;
  created_at: number;
  updated_at: number;
}
