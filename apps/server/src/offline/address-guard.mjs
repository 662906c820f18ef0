/**
 * The one network guard for connections Haul makes on a user's behalf (offline downloads over HTTP, BitTorrent
 * trackers, peers, web seeds, DHT): only public addresses, checked after name resolution, for every connection, so a
 * name that resolves differently the second time (DNS rebinding) or a redirect gains nothing.
 *
 * Plain JavaScript so that the BitTorrent thread (torrent-thread.mjs, which runs without a TypeScript loader) and the
 * server share it; network-guard.ts gives it types.
 */
import dgram from 'node:dgram';
import { lookup as dnsLookup } from 'node:dns';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
import ipaddr from 'ipaddr.js';

export class BlockedAddressError extends Error {
  constructor(address) {
    super(`The link points to a private or reserved network address (${address}); Haul does not fetch from those.`);
    this.address = address;
    this.code = 'EHAULBLOCKED';
  }
}

/** True for addresses on the public internet: not loopback, private, link-local (cloud metadata), multicast, reserved… */
export function isPublicAddress(address) {
  if (typeof address !== 'string' || !ipaddr.isValid(address)) return false;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && addr.isIPv4MappedAddress()) addr = addr.toIPv4Address();
  return addr.range() === 'unicast';
}

/** A `lookup` (dns.lookup's shape) that refuses non-public addresses unless private networks are allowed. */
export function guardedLookup(allowPrivate) {
  return (hostname, options, callback) => {
    if (typeof options === 'function') [options, callback] = [{}, options];
    // dgram passes the family as a number.
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(new BlockedAddressError(bad.address), '', 0);
      if (opts.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const refuse = guardedLookup(false);

/**
 * Makes every TCP connection (net, http, https, fetch through them) and every UDP datagram of this thread go through
 * the guard. Only for a thread that does nothing but a user's work: the BitTorrent thread. Fail-closed: a socket of a
 * kind it does not know (a Unix socket) is refused, and a blocked connection fails like an unreachable one.
 */
export function guardThreadSockets() {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    // tls and http hand over arguments already normalised (an array); anything else is normalised here.
    const normalized = Array.isArray(args[0]) ? args[0] : net._normalizeArgs(args);
    const options = normalized[0];
    const host = options.host ?? 'localhost';
    const blocked = options.path !== undefined ? String(options.path) : net.isIP(host) && !isPublicAddress(host) ? host : null;
    if (blocked !== null) {
      process.nextTick(() => this.destroy(new BlockedAddressError(blocked)));
      return this;
    }
    if (!net.isIP(host)) options.lookup = refuse;
    return connect.call(this, normalized);
  };

  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guardedSend(msg, ...rest) {
    // send(msg, [offset, length,] port, address, [callback]); a connected socket: send(msg, [callback]).
    const at = typeof rest[0] === 'number' && typeof rest[1] === 'number' && typeof rest[2] === 'number' ? 2 : 0;
    if (typeof rest[at] !== 'number') return send.call(this, msg, ...rest);
    const address = typeof rest[at + 1] === 'string' ? rest[at + 1] : this.type === 'udp6' ? '::1' : '127.0.0.1';
    const callback = rest.find((a) => typeof a === 'function');
    refuse(address, this.type === 'udp6' ? 6 : 4, (err, ip) => {
      // A datagram may be lost anyway: a refused one is dropped, reported only to a caller who asked.
      if (err) return callback?.(err);
      const args = [...rest];
      args[at + 1] = ip;
      send.call(this, msg, ...args);
    });
  };

  const dgramConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function guardedUdpConnect(port, address, callback) {
    if (typeof address === 'function') [address, callback] = [undefined, address];
    refuse(address ?? '127.0.0.1', this.type === 'udp6' ? 6 : 4, (err, ip) => {
      if (err) return callback ? callback(err) : this.emit('error', err);
      dgramConnect.call(this, port, ip, callback);
    });
  };
  // Modules that imported these by name see the guarded versions too.
  syncBuiltinESMExports();
}
