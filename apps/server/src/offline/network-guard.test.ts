import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BlockedAddressError, guardedLookup, isPublicAddress, parseHttpLink } from './network-guard.js';

describe('network guard', () => {
  it('accepts public addresses and refuses loopback, private, link-local, multicast and reserved ones', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'ff02::1',
      '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', 'not-an-ip',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('normalises the odd spellings of loopback before the check', () => {
    for (const raw of ['http://0x7f.0.0.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://127.1/', 'http://[::ffff:127.0.0.1]/']) {
      const host = parseHttpLink(raw)!.hostname.replace(/^\[|\]$/g, '');
      expect(isPublicAddress(host), raw).toBe(false);
    }
  });

  it('only takes http and https links', () => {
    expect(parseHttpLink('https://example.com/a.iso')?.hostname).toBe('example.com');
    for (const raw of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://x', 'javascript:alert(1)', 'not a url']) expect(parseHttpLink(raw), raw).toBeNull();
  });

  it('refuses to connect to a name that resolves to loopback, unless private networks are allowed', async () => {
    const attempt = (allowPrivate: boolean) =>
      new Promise<unknown>((resolve) => {
        const req = request({ host: 'localhost', port: 9, path: '/', lookup: guardedLookup(allowPrivate) });
        req.on('error', resolve);
        req.end();
      });
    expect(await attempt(false)).toBeInstanceOf(BlockedAddressError);
    // Allowed: the lookup passes and the connection itself fails (nothing listens on port 9).
    expect(await attempt(true)).not.toBeInstanceOf(BlockedAddressError);
  });
});
