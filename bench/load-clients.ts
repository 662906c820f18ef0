/**
 * The clients of the load benchmark (bench/load.bench.ts): autocannon for the listings, a paced node:http loop for the
 * file fetches, paced tus-js-client uploads to Haul and PUTs to nginx; each returns what it did in the window.
 */
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import * as tus from 'tus-js-client';
import type { HaulClient } from '@haul/client';
import { MiB } from './references.js';

export const SECONDS = Number(process.env.HAUL_BENCH_LOAD_SECONDS ?? 15);
/** Listing requests a second in all (HAUL_BENCH_LOAD_LIST_RATE); 0, the default, is as fast as the answers come. */
export const LIST_RATE = Number(process.env.HAUL_BENCH_LOAD_LIST_RATE ?? 0);
/**
 * Fetches a second over all fetch connections, started on a schedule (a late one starts when its connection is free).
 * Whole files back to back would measure the client rather than the servers; 20 a second is ~90 MB/s.
 */
export const FETCH_RATE = Number(process.env.HAUL_BENCH_LOAD_FETCH_RATE ?? 20);
export const UPLOADERS = 50;
/** Each uploader starts a file this often (seconds; late ones start at once): 50 clients, 5 files (20 MB) a second. */
export const UPLOAD_EVERY = Number(process.env.HAUL_BENCH_LOAD_UPLOAD_EVERY ?? 10);
export const UPLOAD_BYTES = 4 * MiB;
export const CHUNK = 1 * MiB;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Req {
  path: string;
  headers: Record<string, string>;
}

/** What one kind of traffic did in the window. */
export interface Figures {
  count: number;
  seconds: number;
  bytes: number;
  /** Latency of each answer (ms), every status. */
  times: number[];
  /** Non-2xx answers by status, and transport errors and timeouts. */
  bad: Record<string, number>;
}

export const perSecond = (f: Figures) => f.count / f.seconds;
export const badCount = (f: Figures) => Object.values(f.bad).reduce((a, b) => a + b, 0);

/** `connections` autocannon connections against `base` for SECONDS, each request the next of `reqs` (round robin). */
export async function hammer(base: string, reqs: Req[], connections: number): Promise<Figures> {
  if (!connections) return { count: 0, seconds: SECONDS, bytes: 0, times: [], bad: {} };
  let next = 0;
  const times: number[] = [];
  const bad: Record<string, number> = {};
  const t0 = performance.now();
  const instance = autocannon({
    url: base,
    connections,
    duration: SECONDS,
    timeout: 30,
    ...(LIST_RATE ? { overallRate: LIST_RATE } : {}),
    requests: [
      {
        setupRequest: (r: Record<string, unknown>) => {
          const q = reqs[next++ % reqs.length]!;
          return { ...r, method: 'GET', path: q.path, headers: q.headers };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    times.push(ms);
    if (status < 200 || status > 299) bad[status] = (bad[status] ?? 0) + 1;
  });
  const result = await instance;
  if (result.errors) bad.errors = result.errors;
  if (result.timeouts) bad.timeouts = result.timeouts;
  return { count: times.length, seconds: (performance.now() - t0) / 1000, bytes: result.throughput.total, times, bad };
}

/**
 * File fetches on `connections` kept-alive connections, FETCH_RATE a second in all on a schedule, bodies counted and
 * dropped. Not autocannon: it appends every body chunk to a string (a UTF-8 decode of each file), which made the
 * client, not the server, the bottleneck of the fetches.
 */
export async function fetchLoad(base: string, reqs: Req[], connections: number): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  const times: number[] = [];
  const bad: Record<string, number> = {};
  let bytes = 0;
  let next = 0;
  const one = (q: Req) =>
    new Promise<void>((ok) => {
      const s = performance.now();
      const req = request(base + q.path, { agent, headers: q.headers }, (res) => {
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.once('end', () => {
          times.push(performance.now() - s);
          if ((res.statusCode ?? 0) > 299) bad[res.statusCode!] = (bad[res.statusCode!] ?? 0) + 1;
          ok();
        });
      });
      req.once('error', (err) => {
        bad[err.message] = (bad[err.message] ?? 0) + 1;
        ok();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: connections }, async (_, j) => {
      for (let n = 0; ; n++) {
        const at = t0 + ((j + n * connections) / FETCH_RATE) * 1000;
        if (at >= end) break;
        await sleep(at - performance.now());
        await one(reqs[next++ % reqs.length]!);
      }
    }),
  );
  agent.destroy();
  return { count: times.length, seconds: (performance.now() - t0) / 1000, bytes, times, bad };
}

/** UPLOADERS clients, each starting a file with `one` every UPLOAD_EVERY s (staggered) until SECONDS have passed. */
export async function uploadLoad(one: (k: number, n: number) => Promise<void>): Promise<Figures> {
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  const times: number[] = [];
  const bad: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: UPLOADERS }, async (_, k) => {
      for (let n = 0; ; n++) {
        const at = t0 + ((k / UPLOADERS + n) * UPLOAD_EVERY) * 1000;
        if (at >= end) break;
        await sleep(at - performance.now());
        const s = performance.now();
        try {
          await one(k, n);
          times.push(performance.now() - s);
        } catch (err) {
          const key = (err as Error).message.slice(0, 80);
          bad[key] = (bad[key] ?? 0) + 1;
        }
      }
    }),
  );
  return { count: times.length, seconds: (performance.now() - t0) / 1000, bytes: times.length * UPLOAD_BYTES, times, bad };
}

/** Of each upload: the time to create it (POST files), and the time of each PATCH. */
export const creates: number[] = [];
export const patches: number[] = [];

/** Creates a file and sends its bytes over tus in CHUNK-sized PATCHes, as the web app does; the task id. */
export async function tusUpload(client: HaulClient, token: string, bytes: Buffer, name: string): Promise<string> {
  const s = performance.now();
  const created = await client.call('createFile', {
    body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: String(bytes.length), parent_id: '' },
  });
  let last = performance.now();
  creates.push(last - s);
  await new Promise<void>((ok, fail) => {
    new tus.Upload(bytes, {
      onChunkComplete: () => {
        patches.push(performance.now() - last);
        last = performance.now();
      },
      uploadUrl: created.resumable!.params.upload_url,
      headers: { authorization: `Bearer ${token}` },
      chunkSize: CHUNK,
      retryDelays: [],
      onSuccess: () => ok(),
      onError: fail,
    }).start();
  });
  return created.task!.id;
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: UPLOADERS });

/** PUT of `bytes` to nginx's dav module, on a kept-alive connection. */
export function nginxPut(url: string, bytes: Buffer): Promise<void> {
  return new Promise((ok, fail) => {
    const req = request(url, { method: 'PUT', agent: keepAlive, headers: { 'content-length': bytes.length } }, (res) => {
      res.resume();
      res.once('end', () => ((res.statusCode ?? 0) < 300 ? ok() : fail(new Error(`nginx answered ${res.statusCode}`))));
    });
    req.once('error', fail);
    req.end(bytes);
  });
}

/** Closes the kept-alive connections of the nginx PUTs. */
export const closeClients = () => keepAlive.destroy();
