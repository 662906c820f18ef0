/** Plans and money in words: what a grant gives, how often a product renews, an order's and a code's state. */
import type { TFunction } from 'i18next';
import type { GrantItem, OrderStatus } from '@haul/shared';
import { describeGrant } from '../plans/plan-format';
import type { AdminCode } from './admin-money-api';

/** Every order status, in the filter's order (the contract's list, which the web keeps no TypeBox copy of). */
export const ORDER_STATUS_LIST: OrderStatus[] = ['succeed', 'pending', 'refunded', 'failed', 'close'];

/** "Premium for 30 days, 100 GB of storage", as the payment pages say it. */
export const grantsText = (t: TFunction, grants: GrantItem[], locale: string): string => grants.map((g) => describeGrant(g, t, locale)).join(', ');

export const intervalText = (t: TFunction, interval: string): string =>
  interval === 'month' ? t('adminMoney.products.monthly') : interval === 'year' ? t('adminMoney.products.yearly') : t('adminMoney.products.once');

const STATUS_TEXT: Record<OrderStatus, (t: TFunction) => string> = {
  pending: (t) => t('adminMoney.orders.status.pending'),
  succeed: (t) => t('adminMoney.orders.status.succeed'),
  failed: (t) => t('adminMoney.orders.status.failed'),
  close: (t) => t('adminMoney.orders.status.close'),
  refunded: (t) => t('adminMoney.orders.status.refunded'),
};
export const orderStatusText = (t: TFunction, s: OrderStatus): string => STATUS_TEXT[s](t);

/** Revoked, expired, used up or usable: what a person trying the code would meet. */
export function codeState(c: AdminCode, now = Date.now()): 'revoked' | 'expired' | 'used' | 'live' {
  if (c.revoked_time) return 'revoked';
  if (c.expires_time && Date.parse(c.expires_time) <= now) return 'expired';
  if (c.used_count >= c.max_uses) return 'used';
  return 'live';
}

const CODE_STATE_TEXT: Record<ReturnType<typeof codeState>, (t: TFunction) => string> = {
  revoked: (t) => t('adminMoney.codes.revoked'),
  expired: (t) => t('adminMoney.codes.expired'),
  used: (t) => t('adminMoney.codes.usedUp'),
  live: (t) => t('adminMoney.codes.live'),
};
export const codeStateText = (t: TFunction, state: ReturnType<typeof codeState>): string => CODE_STATE_TEXT[state](t);
