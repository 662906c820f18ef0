/** The operator's goods (`haul-admin plans`): premium time, storage and transfer packs, paid once or renewed. */
import { formatGrantSpec, parseGrantSpec, type GrantKind, type Product } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { ProductsTable } from '../db/schema.js';
import { grantItems } from './vip-info.js';

export type ProductRow = ProductsTable;
export const INTERVALS = ['', 'month', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

/** Digits after the point in a currency (2 for EUR, 0 for JPY), as Intl knows them. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** A minor-unit amount as a plain decimal ("9.99"): no thousands separators, as the clients expect (seed 001 §4). */
export function priceString(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0 ? String(minor) : (minor / 10 ** digits).toFixed(digits);
}

/** "9.99" in the currency's minor unit, exactly (no float drift); null when it is not a price. */
export function parsePrice(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const m = /^(\d{1,9})(?:\.(\d+))?$/.exec(text.trim());
  if (!m || (m[2] ?? '').length > digits) return null;
  return Number(m[1]) * 10 ** digits + Number((m[2] ?? '').padEnd(digits, '0') || 0);
}

export function presentProduct(row: ProductRow): Product {
  return {
    id: row.id,
    kind: row.kind as GrantKind,
    title: row.title,
    grants: grantItems(row.grant_spec),
    price: priceString(row.price_minor, row.currency),
    price_minor: row.price_minor,
    currency: row.currency,
    subscriber_type: row.interval === 'month' || row.interval === 'year' ? row.interval : 'none',
    subscription_mode: row.interval ? 'recurring' : 'one_time',
  };
}

/** Products on sale, in the operator's order; of one kind when asked. */
export function productsOnSale(db: Db, kind?: GrantKind): Promise<ProductRow[]> {
  let q = db.selectFrom('products').selectAll().where('active', '=', 1);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('position').orderBy('created_at').execute();
}

export function findProduct(db: Db, id: string): Promise<ProductRow | undefined> {
  return db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewProduct {
  id: string;
  title: string;
  grant: string;
  price: string;
  currency: string;
  interval: Interval;
  kind?: GrantKind;
  position?: number;
}

/** Adds a product or replaces one of the same id (orders keep what they were sold). Throws with a reason on bad input. */
export async function saveProduct(db: Db, input: NewProduct, now: number): Promise<ProductRow> {
  if (!/^[a-z0-9][a-z0-9-]{0,47}$/.test(input.id)) throw new Error('the id must be 1-48 lower-case letters, digits and dashes');
  if (!input.title.trim() || input.title.length > 80) throw new Error('the title must be 1-80 characters');
  const currency = input.currency.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency) || !Intl.supportedValuesOf('currency').includes(currency)) throw new Error(`${input.currency} is not an ISO 4217 currency`);
  const price = parsePrice(input.price, currency);
  if (price === null || price <= 0) throw new Error(`the price must be a positive amount like 9.99 (${minorDigits(currency)} decimals in ${currency})`);
  if (!INTERVALS.includes(input.interval)) throw new Error('the interval must be month or year (or none for paid once)');
  const parts = parseGrantSpec(input.grant);
  const row: ProductRow = {
    id: input.id,
    kind: input.kind ?? parts[0]!.kind,
    title: input.title.trim(),
    grant_spec: formatGrantSpec(parts),
    price_minor: price,
    currency,
    interval: input.interval,
    active: 1,
    position: input.position ?? 0,
    created_at: now,
  };
  const { id: _id, ...rest } = row;
  await db
    .insertInto('products')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(rest))
    .execute();
  return row;
}

/** Takes a product off sale; its orders and subscriptions keep their title. */
export async function retireProduct(db: Db, id: string): Promise<boolean> {
  const r = await db.updateTable('products').set({ active: 0 }).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
