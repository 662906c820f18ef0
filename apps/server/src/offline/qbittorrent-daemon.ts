/**
 * Starts a throwaway qBittorrent-nox on loopback, for the tests, the benchmark and trying the daemon engine on one
 * machine: a fresh profile directory, the Web UI on 127.0.0.1 without a login for loopback, peers over TCP on the
 * loopback interface only, no DHT, peer exchange, local discovery, UPnP or look-ups of peer countries (nothing leaves
 * the machine), no queue (every task's torrent runs at once) and several peers allowed from one address (every peer of
 * a test is on 127.0.0.1). uTP is off: with it, the daemon spends ~3 s trying it before TCP with each new peer.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface QbittorrentDaemon {
  /** The Web UI's address, for HAUL_TORRENT_DAEMON_URL. */
  url: string;
  pid: number;
  /** Stops the daemon and removes its profile. */
  stop: () => Promise<void>;
}

/** A TCP port free on loopback right now. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
  });
}

function profileConfig(webPort: number, peerPort: number): string {
  return `[LegalNotice]
Accepted=true

[BitTorrent]
Session\\Port=${peerPort}
Session\\Interface=lo
Session\\InterfaceName=lo
Session\\InterfaceAddress=127.0.0.1
Session\\BTProtocol=TCP
Session\\DHTEnabled=false
Session\\LSDEnabled=false
Session\\PeXEnabled=false
Session\\QueueingSystemEnabled=false
Session\\MultiConnectionsPerIp=true
Session\\AddTorrentPaused=false

[Preferences]
WebUI\\Address=127.0.0.1
WebUI\\Port=${webPort}
WebUI\\LocalHostAuth=false
Connection\\UPnP=false
Connection\\ResolvePeerCountries=false
General\\Locale=en
`;
}

/** Starts qbittorrent-nox with a fresh profile and waits until its Web API answers. */
export async function startQbittorrentDaemon(): Promise<QbittorrentDaemon> {
  if (spawnSync('sh', ['-c', 'command -v qbittorrent-nox']).status !== 0) {
    throw new Error('qbittorrent-nox is missing: install it with "apt-get install -y qbittorrent-nox".');
  }
  const profile = mkdtempSync(join(tmpdir(), 'haul-qbt-'));
  const [webPort, peerPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
  mkdirSync(join(profile, 'qBittorrent', 'config'), { recursive: true });
  writeFileSync(join(profile, 'qBittorrent', 'config', 'qBittorrent.conf'), profileConfig(webPort, peerPort));
  const child = spawn('qbittorrent-nox', [`--profile=${profile}`, `--webui-port=${webPort}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${webPort}/`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(profile, { recursive: true, force: true });
  };
  const end = Date.now() + 20_000;
  for (;;) {
    const ok = await fetch(`${url}api/v2/app/webapiVersion`).then((r) => r.ok, () => false);
    if (ok) return { url, pid: child.pid!, stop };
    if (child.exitCode !== null || Date.now() > end) {
      await stop();
      throw new Error(`qbittorrent-nox did not start: ${stderr.trim() || `exit ${child.exitCode}`}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
