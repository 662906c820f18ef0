import { describe, expect, it } from 'vitest';
import { formatGrantSpec, parseGrantSpec } from '@haul/shared/plain';
import { grantSpec } from './grant-form';

describe('the grant form', () => {
  it('writes the spec the server parses: premium days, GB for good or for days', () => {
    expect(grantSpec('premium', ' 30 ', '')).toBe('premium:30d');
    expect(grantSpec('storage', '100', '')).toBe('storage:100GB');
    expect(grantSpec('storage', '1.5', '365')).toBe('storage:1.5GB/365d');
    expect(grantSpec('transfer', '50', '30')).toBe('transfer:50GB/30d');
    expect(formatGrantSpec(parseGrantSpec(grantSpec('transfer', '50', '30')))).toBe('transfer:50GB');
    expect(parseGrantSpec(grantSpec('storage', '100', ''))).toEqual([{ kind: 'storage', bytes: 100 * 2 ** 30, days: null }]);
  });

  it('makes a spec the parser refuses from what is not an amount', () => {
    for (const spec of [grantSpec('premium', 'ten', ''), grantSpec('premium', '', ''), grantSpec('storage', '', ''), grantSpec('transfer', '5', 'x')]) {
      expect(() => parseGrantSpec(spec), spec).toThrow();
    }
  });
});
