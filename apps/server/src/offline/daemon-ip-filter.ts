/**
 * The private-network rule for a torrent daemon: Haul cannot guard the daemon's sockets, so it hands the daemon an IP
 * filter (eMule .dat) of every address that is not public, applied to peers, web seeds and trackers (qBittorrent's
 * "apply to trackers"), the same ranges isPublicAddress refuses.
 */
import ipaddr from 'ipaddr.js';

/** Every range isPublicAddress refuses (ipaddr.js's non-unicast ranges), as CIDRs; a test holds the two together. */
export const NON_PUBLIC_CIDRS = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
  '224.0.0.0/4', '240.0.0.0/4',
  '::/127', '::ffff:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2001::/23', '2001:db8::/32', '2002::/16',
  'fc00::/7', 'fe80::/10', 'ff00::/8',
];

/** First and last address of a CIDR. */
function bounds(cidr: string): [string, string] {
  const [addr, len] = ipaddr.parseCIDR(cidr);
  if (addr.kind() === 'ipv4') {
    const first = ipaddr.IPv4.networkAddressFromCIDR(cidr);
    const last = ipaddr.IPv4.broadcastAddressFromCIDR(cidr);
    return [first.toString(), last.toString()];
  }
  const bytes = addr.toByteArray();
  const lo = bytes.map((b, i) => (i * 8 >= len ? 0 : i * 8 + 8 <= len ? b : b & (0xff << (8 - (len - i * 8)))));
  const hi = lo.map((b, i) => (i * 8 >= len ? 0xff : i * 8 + 8 <= len ? b : b | (0xff >> (len - i * 8))));
  return [ipaddr.fromByteArray(lo).toString(), ipaddr.fromByteArray(hi).toString()];
}

/** The filter file: one "first - last , 000 , name" line a range (access 000: blocked). */
export function privateNetworksDat(): string {
  return NON_PUBLIC_CIDRS.map((c) => {
    const [first, last] = bounds(c);
    return `${first} - ${last} , 000 , not public (${c})`;
  }).join('\n') + '\n';
}
