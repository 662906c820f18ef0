/**
 * The private-network rule for a torrent daemon: Haul cannot guard the daemon's sockets, so it hands the daemon an IP
 * filter (eMule .dat) of every address that is not public, applied to peers, web seeds and trackers (qBittorrent's
 * "apply to trackers"), the same ranges isPublicAddress refuses.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QBittorrent } from '@ctrl/qbittorrent';
import ipaddr from 'ipaddr.js';
import { TorrentError } from './torrent-types.js';

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

/** Two names taken in turn: a path the daemon does not hold now is read at once, the same path again is not read. */
const FILTER_FILES = ['private-networks.dat', 'private-networks-b.dat'];
/** qBittorrent's log entry of type "normal". */
const LOG_NORMAL = 1;

interface LogEntry {
  id: number;
  type: number;
  message: string;
}

/**
 * Hands the daemon the filter and waits until the daemon says it applied it. qBittorrent accepts the setting at once
 * and parses the file ~0.1 s later, on a thread of its own; a torrent added in between could reach a private address.
 * Its log then says "Successfully parsed the IP filter file. Number of rules applied: N": this waits for a new
 * "normal" entry holding N, the filter's own rule count (a translated daemon words it differently but keeps N), and
 * refuses a file the daemon read otherwise (a malformed line applies fewer rules). Its errors are the task's to show.
 */
export async function applyDaemonIpFilter(client: QBittorrent, localRoot: string, daemonRoot: string, timeoutMs: number): Promise<void> {
  const held = (await client.getPreferences()).ip_filter_path;
  const name = held === join(daemonRoot, FILTER_FILES[0]) ? FILTER_FILES[1] : FILTER_FILES[0];
  await mkdir(localRoot, { recursive: true });
  await writeFile(join(localRoot, name), privateNetworksDat());
  const logSince = async (id: number) => client.request<LogEntry[]>('/log/main', 'GET', { last_known_id: id });
  let seen = (await logSince(-1)).at(-1)?.id ?? -1;
  const ok = await client.setPreferences({ ip_filter_enabled: true, ip_filter_path: join(daemonRoot, name), ip_filter_trackers: true });
  if (!ok) throw new TorrentError('The torrent daemon refused the IP filter that keeps it off private networks.');
  const rules = new RegExp(`(^|\\D)${NON_PUBLIC_CIDRS.length}(\\D|$)`);
  const end = Date.now() + timeoutMs;
  for (;;) {
    const entries = await logSince(seen);
    if (entries.some((e) => e.type === LOG_NORMAL && rules.test(e.message))) return;
    seen = entries.at(-1)?.id ?? seen;
    if (Date.now() > end) {
      throw new TorrentError(`The torrent daemon did not confirm within ${timeoutMs / 1000} s that it applied the IP filter that keeps it off private networks.`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
