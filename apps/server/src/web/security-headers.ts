/**
 * Security headers on every answer, and a Content-Security-Policy on the web app's pages: scripts only from our origin
 * plus the inline scripts of the built index.html, allowed by their hashes (computed here from the file, so a rebuilt
 * page never needs an edit); no page of ours may be framed, but the landing page, which the browser extension frames
 * (seed 000 §2). HSTS when the request came over HTTPS (directly or through the trusted proxy).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { linkBase, requestOrigin } from '../http/public-url.js';

/** The one page other origins may frame: the browser extension's. */
export const FRAMEABLE_PATHS = new Set(['/drive/landing']);
const EXTENSION_FRAMERS = "'self' chrome-extension: moz-extension: safari-web-extension:";

/** sha256 sources of the inline scripts of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    hashes.push(`'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  }
  return hashes;
}

/** The page policy: `extra` origins (the pinned public URL when it is another origin) may serve media, pictures and calls. */
export function pagePolicy(scriptHashes: string[], extra: string[], frameable: boolean): string {
  const more = extra.length ? ` ${extra.join(' ')}` : '';
  return [
    "default-src 'self'",
    // WebAssembly (hash-wasm: the upload id and content hashes) may compile; JavaScript eval stays refused.
    `script-src 'self' ${scriptHashes.join(' ')} 'wasm-unsafe-eval'`.replace(/\s+/g, ' '),
    // Radix and sonner add <style> elements; no script can come in through a style.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${more}`,
    // hls.js plays through Media Source (blob: URLs) and fetches from a worker it makes from a blob.
    `media-src 'self' blob:${more}`,
    `connect-src 'self'${more}`,
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameable ? EXTENSION_FRAMERS : "'none'"}`,
  ].join('; ');
}

/** Adds the headers to every answer of `app`; `indexHtml` is the built page whose inline scripts are allowed. */
export function installSecurityHeaders(app: FastifyInstance, opts: { indexHtml: string; config: Config }): void {
  const hashes = existsSync(opts.indexHtml) ? inlineScriptHashes(readFileSync(opts.indexHtml, 'utf8')) : [];
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (req.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=15552000');
    const type = String(reply.getHeader('content-type') ?? '');
    // API answers carry links signed for, and built from the address of, whoever asked: no cache may keep one for another.
    if (type.startsWith('application/json') && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    if (type.startsWith('text/html') && !reply.hasHeader('content-security-policy')) {
      const path = req.url.split('?')[0]!;
      const frameable = FRAMEABLE_PATHS.has(path);
      // The page loads the links the API hands it: same-origin unless a public URL is pinned and the page was opened
      // at another address (a LAN address, say).
      const here = requestOrigin(req);
      const links = new URL(linkBase(opts.config, req)).origin;
      reply.header('Content-Security-Policy', pagePolicy(hashes, here === links ? [] : [links], frameable));
      if (!frameable) reply.header('X-Frame-Options', 'DENY');
      reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    }
    return payload;
  });
}
