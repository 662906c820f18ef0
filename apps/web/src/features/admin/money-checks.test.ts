import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { codeState } from './money-words';
import { productErrors } from './products-panel';
import type { AdminCode } from './admin-money-api';

const t = ((key: string) => key) as unknown as TFunction;
const good = { id: 'premium-month', title: 'Premium, monthly', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: 'month' as const };

describe('the console’s goods form', () => {
  it('accepts what the catalogue accepts', () => {
    expect(productErrors(good, t)).toEqual({});
    expect(productErrors({ ...good, price: '500', currency: 'JPY', grant: 'storage:100GB/30d, transfer:50GB' }, t)).toEqual({});
  });

  it('names each field the catalogue would refuse', () => {
    expect(productErrors({ ...good, id: 'Premium Month', title: ' ', grant: 'premium:lots', price: '0', currency: 'EU' }, t)).toEqual({
      id: 'adminMoney.products.badId',
      title: 'adminMoney.products.badTitle',
      grant: 'adminMoney.badGrant',
      price: 'adminMoney.products.badPrice',
      currency: 'adminMoney.products.badCurrency',
    });
    expect(productErrors({ ...good, price: '4,99' }, t).price).toBe('adminMoney.products.badPrice');
    expect(productErrors({ ...good, id: '-leading' }, t).id).toBe('adminMoney.products.badId');
  });
});

describe('a redeem code’s state', () => {
  const code: AdminCode = { id: 'c', grant: 'premium:7d', grants: [], note: '', max_uses: 2, used_count: 1, expires_time: '', created_time: '2026-11-01T00:00:00.000Z', revoked_time: '' };
  const now = Date.parse('2026-12-01T00:00:00Z');
  it('is what a person trying it would meet, revoked first', () => {
    expect(codeState(code, now)).toBe('live');
    expect(codeState({ ...code, used_count: 2 }, now)).toBe('used');
    expect(codeState({ ...code, expires_time: '2026-11-30T00:00:00.000Z' }, now)).toBe('expired');
    expect(codeState({ ...code, used_count: 2, expires_time: '2026-11-30T00:00:00.000Z', revoked_time: '2026-11-20T00:00:00.000Z' }, now)).toBe('revoked');
  });
});
