/**
 * The base of every absolute link the server hands out. Links follow the address the person used (a phone on the
 * home network opens Haul at 192.168.1.20, a laptop at localhost), unless the operator pinned one with
 * HAUL_PUBLIC_URL. The request's origin is kept in an AsyncLocalStorage for the length of the request, so link
 * builders deep inside services need only the context; background work, outside any request, gets the fallback.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { installRequestScope } from './request-scope.js';

const origins = new AsyncLocalStorage<string>();

// A host name, an IPv4 address or a bracketed IPv6 address, and an optional port: nothing that could carry a path,
// user info or a second URL into the link.
const HOST = /^(?:[a-z0-9_](?:[a-z0-9._-]{0,252}[a-z0-9_])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/** The origin the request was made to (`http://192.168.1.20:8080`), or null when its scheme or host is not usable in a link. */
export function requestOrigin(req: FastifyRequest): string | null {
  // req.protocol and req.host honour X-Forwarded-Proto/-Host only from HAUL_TRUST_PROXY's addresses.
  const scheme = req.protocol;
  const host = req.host;
  if ((scheme !== 'http' && scheme !== 'https') || !HOST.test(host)) return null;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null; // a port past 65535, an IPv6 literal that does not parse
  }
}

/** The base of links answered to `req`: the pinned URL, else the address the request came to, else the fallback. */
export function linkBase(config: Config, req: FastifyRequest): string {
  if (config.publicUrlPinned) return config.publicUrl;
  return requestOrigin(req) ?? config.publicUrl;
}

/** The base of links built now: the current request's (see linkBase), or the configured URL outside any request. */
export function publicUrl(ctx: AppContext): string {
  if (ctx.config.publicUrlPinned) return ctx.config.publicUrl;
  return origins.getStore() ?? ctx.config.publicUrl;
}

/**
 * Enters each request's link base for the rest of its handling. A forged Host header only shapes the links answered
 * to whoever sent it: nothing built from it is stored or shown to anyone else.
 */
export function installLinkBase(app: FastifyInstance, config: Config): void {
  if (config.publicUrlPinned) return;
  installRequestScope(app, origins, (req) => linkBase(config, req), 'haul-link-base');
}
