/**
 * Compression of the API's JSON answers (@fastify/compress), for the clients that accept it: a page of 500 files is
 * ~250-290 KB of JSON and ~45 KB compressed, so a first sync of 100,000 files moves ~9 MB instead of ~48 MB.
 *
 * Only answers a contract route sends as JSON opt in (`serve` adds `JSON_ANSWER_COMPRESSION` to them): a file's bytes
 * (downloads, media, WebDAV) are sent as they are, whatever their type, so ranges, lengths and the download
 * allowance keep meaning the stored bytes. Request bodies are never inflated. The static web app is compressed at
 * build time (web.routes.ts).
 */
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/**
 * Brotli quality 1 (else gzip level 1): a listing comes out 6-6.4x smaller in 80 µs for 100 rows and 0.4 ms for 500,
 * where quality 3 gains 5 % for 2.5x the time and the plugin's default (quality 4) 7 % for 3.8x; most of a listing is
 * ids and hashes no level squeezes further (bench/README.md, "listing: answers compressed"). Answers under 1 KiB go as they
 * are; up to 1 MiB they are compressed in one call on the event loop, which on two cores answered a page sooner than
 * zlib's stream through the thread pool (2.5 against 4.3 ms for 100 rows); larger ones stream.
 */
export const JSON_ANSWER_COMPRESSION = {
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  threshold: 1024,
  syncThreshold: 1024 * 1024,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 1 },
  customTypes: /^application\/json/,
};

/** Registers the plugin with nothing on by default; routes opt in with `compress`. Call before any route. */
export async function installCompression(app: FastifyInstance, enabled: boolean): Promise<void> {
  if (!enabled) return;
  await app.register(compress, { global: false, globalDecompression: false });
}
