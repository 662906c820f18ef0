import { describe, expect, it } from 'vitest';
import { reachableUrls } from './reachable-urls.js';

const interfaces = {
  lo: [
    { address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' },
    { address: '::1', netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', family: 'IPv6', mac: '00:00:00:00:00:00', internal: true, cidr: '::1/128', scopeid: 0 },
  ],
  eth0: [
    { address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal: false, cidr: '192.168.1.20/24' },
    { address: 'fd00::5', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal: false, cidr: 'fd00::5/64', scopeid: 0 },
    { address: 'fe80::1', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal: false, cidr: 'fe80::1/64', scopeid: 2 },
  ],
} as const;

describe(reachableUrls.name, () => {
  const base = { port: 8080, publicUrl: 'http://localhost:8080', publicUrlPinned: false };

  it('lists localhost and every outside IPv4 address when listening on 0.0.0.0 (IPv4 only)', () => {
    expect(reachableUrls({ ...base, host: '0.0.0.0' }, interfaces as never)).toEqual(['http://localhost:8080/drive/', 'http://192.168.1.20:8080/drive/']);
  });

  it('adds the routable IPv6 addresses when listening on ::, never a link-local one', () => {
    expect(reachableUrls({ ...base, host: '::' }, interfaces as never)).toEqual([
      'http://localhost:8080/drive/',
      'http://192.168.1.20:8080/drive/',
      'http://[fd00::5]:8080/drive/',
    ]);
  });

  it('names the one address listened on, or the pinned URL', () => {
    expect(reachableUrls({ ...base, host: '127.0.0.1' }, interfaces as never)).toEqual(['http://127.0.0.1:8080/drive/']);
    expect(reachableUrls({ ...base, host: '::1' }, interfaces as never)).toEqual(['http://[::1]:8080/drive/']);
    expect(reachableUrls({ ...base, host: '0.0.0.0', publicUrl: 'https://drive.example.com', publicUrlPinned: true }, interfaces as never)).toEqual([
      'https://drive.example.com/drive/',
    ]);
  });
});
