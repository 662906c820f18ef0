import { describe, expect, it } from 'vitest';
import { clientKey, PassCodeGuard } from './pass-code-guard.js';

describe(PassCodeGuard.name, () => {
  it('counts an IPv6 client per /64 and an IPv4-mapped one as IPv4', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:ffff:1:2:3'));
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
  });

  it('slows a /64 rotating its addresses like one client', () => {
    const g = new PassCodeGuard({ now: () => 0 });
    for (let i = 0; i < 6; i++) g.failed('share', `2001:db8::${i + 1}`);
    expect(g.waitMs('share', '2001:db8::ffff')).toBeGreaterThan(0);
    expect(g.waitMs('share', '2001:db9::1')).toBe(0);
  });
});
