/**
 * BLAKE3 in Chromium the way the web app computes it before an upload: its own hash worker
 * (apps/web/src/features/uploads/hash.worker.ts, bundled here with esbuild) reading a Blob as a stream.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../e2e/harness.js';
import { requireTool } from './references.js';

const WORKER = resolve(import.meta.dirname, '../apps/web/src/features/uploads/hash.worker.ts');

/** Hashes `path` in a headless Chromium's Web Worker: the hex hash and the seconds from handing over the Blob to the answer. */
export async function hashInChromium(path: string): Promise<{ hash: string; seconds: number }> {
  requireTool(CHROMIUM, 'chromium');
  const bundle = await build({ entryPoints: [WORKER], bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, minify: true });
  const workerJs = bundle.outputFiles[0]!.contents;
  const size = statSync(path).size;
  const server = createServer((req, res) => {
    if (req.url === '/hash.worker.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(workerJs);
    if (req.url === '/data') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      return void createReadStream(path).pipe(res);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>hash</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    // The Blob stands for the picked File; only the worker's hashing is timed.
    const r = await page.evaluate(async () => {
      const blob = await (await fetch('/data')).blob();
      const worker = new Worker('/hash.worker.js');
      const t = performance.now();
      const hash = await new Promise<string>((ok, fail) => {
        worker.onmessage = (e: MessageEvent<{ hash?: string; error?: string }>) => {
          if (e.data.hash) ok(e.data.hash);
          else if (e.data.error) fail(new Error(e.data.error));
        };
        worker.onerror = (e) => fail(new Error(e.message));
        worker.postMessage({ file: blob, ranges: [[0, blob.size]] });
      });
      const ms = performance.now() - t;
      worker.terminate();
      return { hash, ms, size: blob.size };
    });
    if (r.size !== size) throw new Error(`the page received ${r.size} of ${size} bytes`);
    return { hash: r.hash, seconds: r.ms / 1000 };
  } finally {
    await browser.close();
    server.close();
  }
}
