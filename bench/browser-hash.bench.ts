/**
 * BLAKE3 of a 1 GB picked file in Chromium's Web Worker (the web app's hash worker), beside hash-wasm over the same
 * bytes already in a worker's memory, in the same page and the same minutes (aim: the worker at 0.8 of the in-memory
 * speed or better). Rounds alternate the two; medians are compared. Reading the file alone, the worker's way, is
 * printed too: where the time goes. HAUL_BENCH_HASH_MB changes the size (MiB), HAUL_BENCH_ROUNDS the rounds (3);
 * HAUL_BENCH_HASH_COMPARE=<file> also times, each round, the worker built with that file as `@haul/client/hash`
 * (an earlier version, say from `git show`), to compare versions in the same minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHashPage } from './browser-hash.js';
import { b3sum, Cleanup, loadLine, mbps, median, MiB, writeRandomFile } from './references.js';

const BYTES = Number(process.env.HAUL_BENCH_HASH_MB ?? 1024) * MiB;
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const COMPARE = process.env.HAUL_BENCH_HASH_COMPARE;

const cleanup = new Cleanup();
try {
  const dir = mkdtempSync(join(tmpdir(), 'haul-bench-hash-'));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'picked.bin');
  await writeRandomFile(file, BYTES);
  // b3sum reads the file once: the expected hash, and the file in the page cache for both sides.
  const expected = (await b3sum(file)).hash;
  console.log(`BLAKE3 of ${BYTES / MiB} MB in Chromium, ${ROUNDS} rounds a side; ${loadLine()}`);

  const page = await openHashPage(file, COMPARE);
  cleanup.add(() => page.close());
  const worker: number[] = [];
  const memory: number[] = [];
  const read: number[] = [];
  const other: number[] = [];
  const wrong = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    const w = await page.viaWorker();
    worker.push(w.seconds);
    if (w.hash !== expected) wrong.add(`worker ${w.hash}`);
    await page.loadReference();
    const m = await page.inMemory();
    memory.push(m.seconds);
    if (m.hash !== expected) wrong.add(`in memory ${m.hash}`);
    await page.freeReference();
    read.push((await page.readOnly()).seconds);
    if (COMPARE) {
      const o = await page.viaOtherWorker();
      other.push(o.seconds);
      if (o.hash !== expected) wrong.add(`compared worker ${o.hash}`);
    }
    const also = COMPARE ? `, compared worker ${other.at(-1)!.toFixed(2)} s` : '';
    console.log(
      `  round ${round + 1}: worker ${w.seconds.toFixed(2)} s, in memory ${m.seconds.toFixed(2)} s, reading alone ${read.at(-1)!.toFixed(2)} s${also}`,
    );
  }

  const [w, m, r] = [median(worker), median(memory), median(read)];
  const secs = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
  console.log(`  the web app's worker (a picked File):        median ${w.toFixed(2)} s ${mbps(BYTES, w)}   rounds: ${secs(worker)} s`);
  console.log(`  hash-wasm over the bytes in memory (worker): median ${m.toFixed(2)} s ${mbps(BYTES, m)}   rounds: ${secs(memory)} s`);
  console.log(`  reading the File alone, the worker's way:    median ${r.toFixed(2)} s ${mbps(BYTES, r)}   rounds: ${secs(read)} s`);
  if (COMPARE) {
    const o = median(other);
    console.log(
      `  the worker with ${COMPARE}: median ${o.toFixed(2)} s ${mbps(BYTES, o)}   rounds: ${secs(other)} s   its ratio ${(m / o).toFixed(2)}`,
    );
  }
  console.log(`  worker/in memory: ${(m / w).toFixed(2)}   (aim >= 0.8)   ${loadLine()}`);
  console.log(`  hashes ${wrong.size ? `DIFFER from b3sum's ${expected}: ${[...wrong].join(', ')}` : 'agree with b3sum'}`);
  if (wrong.size) process.exitCode = 1;
} finally {
  await cleanup.run();
}
