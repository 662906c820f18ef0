import { describe, expect, it } from 'vitest';
import { capCount, expiryLeft, shareMessage } from './share-format';

describe('share words', () => {
  it('says never, days or hours left, and nothing once expired', () => {
    expect(expiryLeft({ expiration_at: '-1', expiration_left_seconds: '-1' })).toBe('never');
    expect(expiryLeft({ expiration_at: 'x', expiration_left_seconds: String(7 * 86400 - 5) })).toEqual({ days: 7 });
    expect(expiryLeft({ expiration_at: 'x', expiration_left_seconds: '86400' })).toEqual({ days: 1 });
    expect(expiryLeft({ expiration_at: 'x', expiration_left_seconds: String(86400 + 3600) })).toEqual({ days: 2 });
    expect(expiryLeft({ expiration_at: 'x', expiration_left_seconds: '5400' })).toEqual({ hours: 2 });
    expect(expiryLeft({ expiration_at: 'x', expiration_left_seconds: '30' })).toEqual({ hours: 1 });
    expect(expiryLeft({ expiration_at: 'x', expiration_left_seconds: '0' })).toBeNull();
  });

  it('caps counts at 999999+', () => {
    expect(capCount('0')).toBe('0');
    expect(capCount('999999')).toBe('999999');
    expect(capCount('1000000')).toBe('999999+');
  });

  it('puts the pass code in the message only when there is one', () => {
    const words = { link: 'Link', code: 'Pass code' };
    expect(shareMessage({ title: 'Album', share_url: 'http://h/s/abc', pass_code: 'x1y2' }, words)).toBe(
      'Album\nLink: http://h/s/abc\nPass code: x1y2',
    );
    expect(shareMessage({ title: 'Album', share_url: 'http://h/s/abc', pass_code: '' }, words)).toBe('Album\nLink: http://h/s/abc');
  });
});
