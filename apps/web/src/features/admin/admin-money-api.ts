/** The console's plans and money calls (goods, orders, redeem codes, invitations), with query keys under ['admin']. */
import type { AdminCodeSchema, AdminInvitationSchema, AdminOrderSchema, AdminProductSchema, OrderStatus, Static } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { ADMIN_KEY } from './admin-api';

export type AdminProduct = Static<typeof AdminProductSchema>;
export type AdminOrder = Static<typeof AdminOrderSchema>;
export type AdminCode = Static<typeof AdminCodeSchema>;
export type ProductInput = { id: string; title: string; grant: string; price: string; currency: string; interval: '' | 'month' | 'year'; position?: number };
export type NewCodes = { grant: string; count: number; max_uses: number; expires_days?: number; note?: string };

/** Orders and codes come 30 at a time: a phone shows a few cards a screen. */
const PAGE = 30;

export const PRODUCTS_KEY = [...ADMIN_KEY, 'products'] as const;
export const ORDERS_KEY = [...ADMIN_KEY, 'orders'] as const;
export const ordersKey = (email: string, status: string) => [...ORDERS_KEY, email, status] as const;
export const CODES_KEY = [...ADMIN_KEY, 'codes'] as const;

export const listProducts = (signal?: AbortSignal) => haul.call('adminListProducts', { signal });
/** Adds or replaces a product, which puts it (back) on sale. */
export const saveProduct = (p: ProductInput) => haul.call('adminSaveProduct', { body: p });
export const retireProduct = (id: string) => haul.call('adminRetireProduct', { params: { id } });

export const listOrders = (email: string, status: OrderStatus | '', pageToken: string, signal?: AbortSignal) =>
  haul.call('adminListOrders', { query: { email: email || undefined, status: status || undefined, limit: PAGE, page_token: pageToken || undefined }, signal });
export const refundOrder = (id: string) => haul.call('adminRefundOrder', { params: { id } });

export const listCodes = (pageToken: string, signal?: AbortSignal) => haul.call('adminListCodes', { query: { limit: PAGE, page_token: pageToken || undefined }, signal });
export const createCodes = (body: NewCodes) => haul.call('adminCreateCodes', { body });
export const revokeCode = (id: string) => haul.call('adminRevokeCode', { params: { id } });

export type AdminInvitation = Static<typeof AdminInvitationSchema>;
export const INVITATIONS_KEY = [...ADMIN_KEY, 'invitations'] as const;
export const listInvitations = (pageToken: string, signal?: AbortSignal) =>
  haul.call('adminListInvitations', { query: { limit: PAGE, page_token: pageToken || undefined }, signal });
