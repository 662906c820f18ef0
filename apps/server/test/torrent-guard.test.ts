/**
 * BitTorrent under the private-network rule: with HAUL_ALLOW_PRIVATE_NETWORK off, no tracker (HTTP or UDP), peer
 * hint, web seed or exact source on loopback is ever contacted, by name or by address, for an inspection or a task.
 * Every listener here counts what reaches it; the same magnet with the rule off reaches them, so the count is real.
 * Peers from tracker replies and peer exchange connect through the same TCP path as the `x.pe` hint tested here.
 */
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ipaddr from 'ipaddr.js';
import { QBittorrent } from '@ctrl/qbittorrent';
import { applyDaemonIpFilter, NON_PUBLIC_CIDRS, privateNetworksDat } from '../src/offline/daemon-ip-filter.js';
import { isPublicAddress } from '../src/offline/network-guard.js';
import { startQbittorrentDaemon } from '../src/offline/qbittorrent-daemon.js';
import { QbittorrentEngine } from '../src/offline/qbittorrent-engine.js';
import { BuiltinTorrentEngine } from '../src/offline/torrent-engine.js';
import type { TorrentEngine } from '../src/offline/torrent-types.js';
import { startTestHaul } from './helper.js';

interface Listeners {
  counts: { http: number; udp: number; tcp: number };
  magnet: (host: string) => string;
  close: () => Promise<void>;
}

async function listeners(): Promise<Listeners> {
  const counts = { http: 0, udp: 0, tcp: 0 };
  const http: Server = createHttpServer((req, res) => {
    counts.http++;
    res.writeHead(404).end();
  });
  const tcp = createTcpServer((s) => {
    counts.tcp++;
    s.destroy();
  });
  const udp = createSocket('udp4');
  udp.on('message', () => counts.udp++);
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  const port = (s: { address(): unknown }) => (s.address() as { port: number }).port;
  const [h, t, u] = [port(http), port(tcp), port(udp)];
  return {
    counts,
    magnet: (host) =>
      `magnet:?xt=urn:btih:${randomBytes(20).toString('hex')}&dn=x` +
      `&tr=${encodeURIComponent(`http://${host}:${h}/announce`)}&tr=${encodeURIComponent(`udp://${host}:${u}/announce`)}` +
      `&x.pe=${host}:${t}&ws=${encodeURIComponent(`http://${host}:${h}/seed`)}&xs=${encodeURIComponent(`http://${host}:${h}/x.torrent`)}`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
      await new Promise((r) => tcp.close(r));
      udp.close();
    },
  };
}

const inspectFor = async (engine: TorrentEngine, magnet: string, dir: string, ms: number) =>
  engine.inspect(magnet, dir, AbortSignal.timeout(ms + 5000), ms).then(
    () => 'metadata',
    (err: Error) => err.message,
  );

/**
 * An inspection that is let go (aborted) as soon as `reached` holds, or after `ms`: a control only needs to see that
 * the listeners are reached, not to wait out the metadata timeout.
 */
async function inspectUntil(engine: TorrentEngine, magnet: string, dir: string, ms: number, reached: () => boolean): Promise<void> {
  const stop = new AbortController();
  const end = Date.now() + ms;
  const inspecting = engine.inspect(magnet, dir, stop.signal, ms).catch(() => undefined);
  while (!reached() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  stop.abort();
  await inspecting;
}

// The two cases that must reach nothing wait out timeouts on purpose, so they run at the same time; the control that
// does reach the listeners comes after both.
describe('BitTorrent and the private-network rule', { concurrent: true }, () => {
  let l: Listeners;
  let dir: string;
  beforeAll(async () => {
    l = await listeners();
    dir = mkdtempSync(join(tmpdir(), 'haul-guard-'));
  });
  afterAll(async () => {
    await l.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('contacts no loopback tracker, peer, web seed or source, by address or by name', async ({ expect }) => {
    const guarded = new BuiltinTorrentEngine({ dht: false, allowPrivateNetwork: false });
    const results = await Promise.all([
      inspectFor(guarded, l.magnet('127.0.0.1'), join(dir, 'a'), 4000),
      inspectFor(guarded, l.magnet('localhost'), join(dir, 'b'), 4000),
      inspectFor(guarded, l.magnet('127.0.0.2'), join(dir, 'c'), 4000),
    ]);
    for (const r of results) expect(r).toMatch(/No peer sent the torrent's file list in time/);
    expect(l.counts).toEqual({ http: 0, udp: 0, tcp: 0 });
  });

  it('guards a task the same way: the worker of a default server never reaches loopback', async ({ expect }) => {
    const before = { ...l.counts };
    const h = await startTestHaul();
    try {
      h.offline.start();
      const t = await h.signUp();
      const res = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: l.magnet('localhost') } });
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 4000));
      expect(l.counts).toEqual(before);
      const task = (await h.api('GET', `/drive/v1/tasks/${res.body.task.id}`, t.access_token)).body;
      // The worker took it and is looking for the metadata, through the guard.
      expect(task.phase).toBe('PHASE_TYPE_RUNNING');
    } finally {
      await h.destroy();
    }
  });
  it.sequential('does reach them when private networks are allowed (so the counts above are real; last, as it leaves announces behind)', async ({ expect }) => {
    const open = new BuiltinTorrentEngine({ dht: false, allowPrivateNetwork: true });
    await inspectUntil(open, l.magnet('127.0.0.1'), join(dir, 'd'), 10_000, () => l.counts.http > 0 && l.counts.udp > 0 && l.counts.tcp > 0);
    expect(l.counts.http).toBeGreaterThan(0);
    expect(l.counts.udp).toBeGreaterThan(0);
    expect(l.counts.tcp).toBeGreaterThan(0);
  });

});

describe('the daemon engine and the private-network rule', () => {
  it('gives the daemon a filter of exactly the addresses the guard refuses', () => {
    for (const cidr of NON_PUBLIC_CIDRS) {
      const [net] = ipaddr.parseCIDR(cidr);
      expect(isPublicAddress(net.toString()), cidr).toBe(false);
    }
    const inFilter = (a: string) => NON_PUBLIC_CIDRS.some((c) => {
      const [net, len] = ipaddr.parseCIDR(c);
      const addr = ipaddr.parse(a);
      return addr.kind() === net.kind() && addr.match(net, len);
    });
    for (const a of ['127.0.0.1', '10.1.2.3', '172.31.0.1', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1']) {
      expect(inFilter(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(inFilter(a), a).toBe(false);
    expect(privateNetworksDat()).toMatch(/^127\.0\.0\.0 - 127\.255\.255\.255 , 000 , /m);
    expect(privateNetworksDat()).toMatch(/^fe80:: - febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff , 000 , /m);
  });

  it('waits until the daemon says it applied the filter, each time, and refuses a filter the daemon cannot read', async () => {
    const daemon = await startQbittorrentDaemon();
    const root = mkdtempSync(join(tmpdir(), 'haul-qbt-filter-'));
    try {
      const client = new QBittorrent({ baseUrl: daemon.url, username: '', password: '' });
      const applied = async () =>
        ((await client.request('/log/main', 'GET', { last_known_id: -1 })) as { message: string }[]).filter((e) =>
          e.message.startsWith('Successfully parsed the IP filter file'),
        ).map((e) => e.message);
      const rules = `Number of rules applied: ${NON_PUBLIC_CIDRS.length}`;
      // The daemon parses a filter on a thread of its own: a call that returned before it did would find no entry.
      await applyDaemonIpFilter(client, root, root, 10_000);
      expect(await applied()).toEqual([expect.stringContaining(rules)]);
      // The same file again would not be read again: the second call takes the other name, and is confirmed too.
      await applyDaemonIpFilter(client, root, root, 10_000);
      expect(await applied()).toEqual([expect.stringContaining(rules), expect.stringContaining(rules)]);
      expect((await client.getPreferences()).ip_filter_path).toBe(join(root, 'private-networks-b.dat'));
      // A daemon that sees the data folder elsewhere cannot open the file: it applies no rule, and no torrent starts.
      await expect(applyDaemonIpFilter(client, root, join(root, 'elsewhere'), 1500)).rejects.toThrow(/did not confirm/);
      expect((await applied()).at(-1)).toContain('Number of rules applied: 0');
    } finally {
      await daemon.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps a qBittorrent daemon off loopback trackers, peers and web seeds, and reaches them once allowed', async () => {
    const l = await listeners();
    const daemon = await startQbittorrentDaemon();
    const root = mkdtempSync(join(tmpdir(), 'haul-qbt-guard-'));
    try {
      const engine = (allowPrivateNetwork: boolean) =>
        new QbittorrentEngine({ url: daemon.url, username: '', password: '', localRoot: root, daemonRoot: root, pollMs: 200, allowPrivateNetwork });
      expect(await inspectFor(engine(false), l.magnet('127.0.0.1'), join(root, 'a'), 6000)).toMatch(/in time/);
      expect(l.counts).toEqual({ http: 0, udp: 0, tcp: 0 });
      const prefs = await (await fetch(`${daemon.url}api/v2/app/preferences`)).json();
      expect(prefs).toMatchObject({ ip_filter_enabled: true, ip_filter_trackers: true, ip_filter_path: join(root, 'private-networks.dat') });
      // The control: with the filter off, the same daemon reaches them.
      await fetch(`${daemon.url}api/v2/app/setPreferences`, { method: 'POST', body: new URLSearchParams({ json: JSON.stringify({ ip_filter_enabled: false }) }) });
      await inspectUntil(engine(true), l.magnet('127.0.0.1'), join(root, 'b'), 10_000, () => l.counts.http + l.counts.udp + l.counts.tcp > 0);
      expect(l.counts.http + l.counts.udp + l.counts.tcp).toBeGreaterThan(0);
    } finally {
      await daemon.stop();
      await l.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
