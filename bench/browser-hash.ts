/**
 * BLAKE3 in Chromium the way the web app computes it before an upload: its own hash worker
 * (apps/web/src/features/uploads/hash.worker.ts, bundled here with esbuild) given a File picked from disk through a
 * file input, as a person picks one; and, in the same page, the references: hash-wasm over the same bytes already in a
 * worker's memory, and reading the File the worker's way without hashing it.
 */
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { HEADLESS_CHROMIUM_ARGS } from '../e2e/chromium-args.js';
import { CHROMIUM } from '../e2e/harness.js';
import { requireTool } from './references.js';

const WORKER = resolve(import.meta.dirname, '../apps/web/src/features/uploads/hash.worker.ts');

/** The reference worker: holds the file's bytes in memory (loaded untimed) and hashes them; or only reads the file. */
const REFERENCE = `
import { createBLAKE3 } from 'hash-wasm';
import { blobChunks } from '@haul/client/hash';
let bytes = null;
self.onmessage = async (e) => {
  const { mode, file } = e.data;
  try {
    if (mode === 'load') {
      bytes = new Uint8Array(await file.arrayBuffer());
      return self.postMessage({ size: bytes.length });
    }
    const t = performance.now();
    if (mode === 'read') {
      let n = 0;
      for await (const chunk of blobChunks(file)) n += chunk.length;
      return self.postMessage({ ms: performance.now() - t, size: n });
    }
    const h = await createBLAKE3();
    h.init();
    h.update(bytes);
    const hash = h.digest('hex');
    self.postMessage({ ms: performance.now() - t, hash });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
`;

export interface HashPage {
  /** The web app's worker, started fresh as the app starts one per file: the hash and the seconds to its answer. */
  viaWorker: () => Promise<{ hash: string; seconds: number }>;
  /** The same worker built with another version of `@haul/client/hash` (`openHashPage`'s `otherHashModule`). */
  viaOtherWorker: () => Promise<{ hash: string; seconds: number }>;
  /** hash-wasm over the same bytes held in a worker's memory (call `loadReference` first). */
  inMemory: () => Promise<{ hash: string; seconds: number }>;
  /** Reads the File into the reference worker's memory, untimed. */
  loadReference: () => Promise<void>;
  freeReference: () => Promise<void>;
  /** Reading the File as the worker reads it, hashing nothing. */
  readOnly: () => Promise<{ seconds: number }>;
  close: () => Promise<void>;
}

const bundle = async (
  opts: { entryPoints: string[]; alias?: Record<string, string> } | { stdin: { contents: string; resolveDir: string } },
) =>
  (await build({ ...opts, bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, minify: true }))
    .outputFiles[0]!.contents;

/**
 * A headless Chromium page holding `path` as a picked File, with the web app's hash worker and the reference's; and,
 * given `otherHashModule` (a file path), the worker built with that version of `@haul/client/hash`, to compare with.
 */
export async function openHashPage(path: string, otherHashModule?: string): Promise<HashPage> {
  requireTool(CHROMIUM, 'chromium');
  const workerJs = await bundle({ entryPoints: [WORKER] });
  const otherJs = otherHashModule
    ? await bundle({ entryPoints: [WORKER], alias: { '@haul/client/hash': resolve(otherHashModule) } })
    : workerJs;
  const referenceJs = await bundle({ stdin: { contents: REFERENCE, resolveDir: import.meta.dirname } });
  const server = createServer((req, res) => {
    if (req.url === '/hash.worker.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(workerJs);
    if (req.url === '/other.worker.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(otherJs);
    if (req.url === '/reference.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(referenceJs);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>hash</title><input type="file">');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...HEADLESS_CHROMIUM_ARGS],
  });
  const page = await browser.newPage();
  page.on('crash', () => console.error('  the page crashed'));
  await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  // A File backed by the file on disk, as a person's pick is (not a Blob copied into the browser's memory).
  await page.locator('input').setInputFiles(path);
  await page.evaluate(() => {
    const w = window as unknown as { reference: Worker };
    w.reference = new Worker('/reference.js');
  });

  const ask = <T>(mode: string) =>
    page.evaluate(
      (mode) =>
        new Promise<T>((ok, fail) => {
          const worker = (window as unknown as { reference: Worker }).reference;
          worker.onmessage = (e: MessageEvent<T & { error?: string }>) => (e.data.error ? fail(new Error(e.data.error)) : ok(e.data));
          worker.postMessage({ mode, file: document.querySelector('input')!.files![0] });
        }),
      mode,
    );

  const viaWorker = async (url: string) => {
    const r = await page.evaluate(async (url) => {
      const file = document.querySelector('input')!.files![0]!;
      const worker = new Worker(url);
      const t = performance.now();
      const hash = await new Promise<string>((ok, fail) => {
        worker.onmessage = (e: MessageEvent<{ hash?: string; error?: string }>) => {
          if (e.data.hash) ok(e.data.hash);
          else if (e.data.error) fail(new Error(e.data.error));
        };
        worker.onerror = (e) => fail(new Error(e.message));
        worker.postMessage({ file, ranges: [[0, file.size]] });
      });
      const ms = performance.now() - t;
      worker.terminate();
      return { hash, ms };
    }, url);
    return { hash: r.hash, seconds: r.ms / 1000 };
  };
  return {
    viaWorker: () => viaWorker('/hash.worker.js'),
    viaOtherWorker: () => viaWorker('/other.worker.js'),
    loadReference: async () => void (await ask<{ size: number }>('load')),
    // A fresh worker: its gigabyte goes at once, not whenever the collector gets to it.
    freeReference: () =>
      page.evaluate(() => {
        const w = window as unknown as { reference: Worker };
        w.reference.terminate();
        w.reference = new Worker('/reference.js');
      }),
    inMemory: async () => {
      const r = await ask<{ hash: string; ms: number }>('hash');
      return { hash: r.hash, seconds: r.ms / 1000 };
    },
    readOnly: async () => ({ seconds: (await ask<{ ms: number }>('read')).ms / 1000 }),
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}

/** Hashes `path` in a headless Chromium's Web Worker: the hex hash and the seconds from handing over the File to the answer. */
export async function hashInChromium(path: string): Promise<{ hash: string; seconds: number }> {
  const page = await openHashPage(path);
  try {
    return await page.viaWorker();
  } finally {
    await page.close();
  }
}
