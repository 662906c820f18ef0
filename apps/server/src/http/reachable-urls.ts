/** The addresses printed at start-up, so whoever started Haul knows what to type on a phone or another computer. */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { Config } from '../config.js';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

const url = (address: string, port: number) => `http://${address.includes(':') ? `[${address}]` : address}:${port}/drive/`;

/** The web app's URLs: the pinned one, or localhost and every outside address of this machine Haul listens on. */
export function reachableUrls(config: Pick<Config, 'host' | 'port' | 'publicUrl' | 'publicUrlPinned'>, interfaces: Interfaces = networkInterfaces()): string[] {
  if (config.publicUrlPinned) return [`${config.publicUrl}/drive/`];
  const { host, port } = config;
  if (host !== '0.0.0.0' && host !== '::') return [url(host, port)];
  const urls = [url('localhost', port)];
  for (const info of Object.values(interfaces).flat()) {
    if (!info || info.internal) continue;
    // 0.0.0.0 listens on IPv4 only (:: on both). Link-local IPv6 addresses need a zone id, which browsers refuse in a URL.
    if (info.family === 'IPv6' && (host === '0.0.0.0' || info.scopeid !== 0)) continue;
    urls.push(url(info.address, port));
  }
  return [...new Set(urls)];
}
