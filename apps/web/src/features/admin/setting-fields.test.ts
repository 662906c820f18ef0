import { describe, expect, it } from 'vitest';
import { fromText } from './setting-fields';

describe('run-time setting fields', () => {
  it("reads the site's name as trimmed text, refusing an empty or over-long one", () => {
    expect(fromText('text', '  Family drive ')).toEqual({ value: 'Family drive' });
    expect(fromText('text', '   ')).toEqual({ error: 'empty' });
    expect(fromText('text', 'x'.repeat(61))).toEqual({ error: 'tooBig' });
  });

  it('holds a trial to a year and other day counts to ten', () => {
    expect(fromText('trial', '30')).toEqual({ value: 30 });
    expect(fromText('trial', '0')).toEqual({ value: 0 });
    expect(fromText('trial', '366')).toEqual({ error: 'tooBig' });
    expect(fromText('days', '3650')).toEqual({ value: 3650 });
    expect(fromText('retention', '0')).toEqual({ error: 'invalid' });
  });
});
