/** How plans read on screen: prices in the person's language, and what a grant gives. */
import { formatSize } from '@haul/shared/plain';
import type { GrantItem } from '@haul/shared';
import type { TFunction } from 'i18next';

/** "€4.99", from the plain decimal the server sends (no thousands separators, seed 001 §4). */
export function formatPrice(price: string, currency: string, locale: string): string {
  const n = Number(price.replace(/,/g, ''));
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(n);
  } catch {
    return `${price} ${currency}`;
  }
}

export function describeGrant(g: GrantItem, t: TFunction, locale: string): string {
  const size = formatSize(g.bytes, 0, locale);
  if (g.kind === 'premium') return t('plans.grantPremium', { count: g.days });
  if (g.kind === 'storage') return g.days ? t('plans.grantStorageFor', { size, count: g.days }) : t('plans.grantStorage', { size });
  return t('plans.grantTransfer', { size, count: g.days });
}

/** A path on this site to come back to; anything else (another site) is dropped. */
export const safeReturn = (path: string | null | undefined): string => (path && /^\/(?![/\\])/.test(path) ? path : '/payment/management');

/** Share pages (/s/…) live outside the drive app: going back to one is a page load, not a route. */
export const isSharePage = (path: string): boolean => path.startsWith('/s/');
