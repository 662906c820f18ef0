/**
 * CORS for the browser extension: its pages and worker call the API from their own origin (chrome-extension://…,
 * moz-extension://…, safari-web-extension://…) with a bearer token, so the answers name that origin and preflights
 * are answered. Only the contract's user and public routes are opened (not admin, nor tus, which answers CORS itself,
 * nor signed links), and never with credentials: no cookie grants anything here, the token is the permission. Web
 * pages cannot take an extension's origin (browsers set Origin), so no site gains anything.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTRACT, pathPattern, type RouteDef } from '@haul/shared';

const EXTENSION_ORIGIN = /^(?:chrome-extension|moz-extension|safari-web-extension):\/\/[a-z0-9-]{1,64}$/i;
/** Methods and headers the typed client sends (client.ts: Authorization, Content-Type, Accept-Language). */
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept-Language';
/** Seconds a browser may keep a preflight's answer (Chromium caps it at 7,200). */
const MAX_AGE = '7200';

const OPEN = (Object.values(CONTRACT) as RouteDef[]).filter((d) => d.auth === 'user' || d.auth === 'public').map((d) => pathPattern(d.path));

/** The extension origin a request comes from, when it asks for an opened route; null otherwise. */
export function extensionOrigin(req: Pick<FastifyRequest, 'headers' | 'url'>): string | null {
  const origin = req.headers.origin;
  if (!origin || !EXTENSION_ORIGIN.test(origin)) return null;
  const path = req.url.split('?')[0]!;
  return OPEN.some((p) => p.test(path)) ? origin : null;
}

export function installExtensionCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    const origin = extensionOrigin(req);
    if (!origin) return;
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Vary', 'Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      reply.header('Access-Control-Allow-Methods', ALLOW_METHODS);
      reply.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
      reply.header('Access-Control-Max-Age', MAX_AGE);
      return reply.status(204).send();
    }
  });
}
