/**
 * The built-in BitTorrent engine's thread: WebTorrent 3 (TCP only) runs here, away from the server's event loop, and
 * — unless private networks are allowed — with every socket of the thread behind the network guard
 * (address-guard.mjs): trackers over HTTP and UDP, peers from any source (tracker replies, peer exchange, `x.pe` hints,
 * the DHT), web seeds and `xs` sources alike. Nothing here ever connects for Haul itself, so guarding the whole thread
 * is exact, and a connection made by a code path nobody thought of is guarded too.
 *
 * Each job gets its own client, so two jobs never share (or destroy) each other's torrent; a stopped job leaves its
 * pieces on disk, and adding the torrent again over the same folder re-checks them and fetches only what is missing.
 * uTP is off: with it on, WebTorrent waits ~40 s before it tries TCP-only peers (aria2c, most daemons).
 *
 * Memory: a peer that states no request queue (aria2c) gets as many block requests as WebTorrent's one second of its
 * speed (8,000-14,000 outstanding, up to 220 MB, from aria2c on loopback), and the thread's RSS grows with them; each
 * peer gets at most MAX_REQUESTS_PER_PEER (500 × 16 KiB = 8 MiB, libtorrent's own default). The thread's young
 * generation is kept small by the side that starts it (torrent-engine.ts). When its last job is over the thread says
 * 'idle', and the server side ends it after a while.
 *
 * Plain JavaScript so that it runs the same under tsx, Vitest and plain node, with no loader. The protocol is in
 * torrent-engine.ts, the side that talks to it.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { guardThreadSockets } from './address-guard.mjs';
import { hashWhileDownloading } from './torrent-file-hashes.mjs';

if (!workerData.allowPrivateNetwork) guardThreadSockets();
// Loaded after the guard, so that nothing WebTorrent sets up at load time slips past it.
const { default: WebTorrent } = await import('webtorrent');

/** Jobs under way, by id: their client, abort and metadata answer hooks. */
const jobs = new Map();

const post = (m) => parentPort.postMessage(m);

/** Block requests kept outstanding to one peer, at most: 8 MiB, enough for ~80 MB/s at 100 ms of round trip. */
const MAX_REQUESTS_PER_PEER = 500;

/** Caps a peer's request pipeline: WebTorrent sizes it by the peer's speed, bounded only by the `reqq` it states. */
function capRequests(wire) {
  const cap = () => {
    const h = wire.peerExtendedHandshake;
    if (h) h.reqq = Math.min(typeof h.reqq === 'number' && h.reqq > 0 ? h.reqq : Infinity, MAX_REQUESTS_PER_PEER);
  };
  cap();
  wire.on('extended', cap);
}

function newClient() {
  return new WebTorrent({
    dht: workerData.dht,
    lsd: false,
    utp: false,
    natUpnp: false,
    natPmp: false,
    webSeeds: true,
    tracker: { wrtc: false },
  });
}

/** What the server side needs of a torrent's metadata (it makes the names safe itself). */
function metaOf(t) {
  return {
    infoHash: t.infoHash,
    name: t.name,
    torrentFile: new Uint8Array(t.torrentFile),
    files: t.files.map((f) => ({ path: f.path, length: f.length })),
  };
}

class JobError extends Error {
  constructor(message, retryable = true) {
    super(message);
    this.retryable = retryable;
  }
}

/** Adds a torrent and waits for its metadata, an error, the timeout or the abort. */
function addAndWait(job, source, path, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new JobError("No peer sent the torrent's file list in time; check the link or try again later.")),
      timeoutMs,
    );
    job.onAbort = () => {
      clearTimeout(timer);
      reject(new JobError('Stopped.'));
    };
    const fail = (err) => {
      clearTimeout(timer);
      reject(new JobError(`BitTorrent: ${err?.message ?? err}`));
    };
    job.client.on('error', fail);
    try {
      const t = job.client.add(typeof source === 'string' ? source : Buffer.from(source), { path, deselect: true, storeCacheSlots: 0 }, (ready) => {
        clearTimeout(timer);
        resolve(ready);
      });
      t.on('error', fail);
      t.on('wire', capRequests);
    } catch (err) {
      clearTimeout(timer);
      reject(new JobError(`Not a valid torrent: ${err.message}`, false));
    }
  });
}

/**
 * Play while it downloads (torrent-play.ts reads these, in whichever process serves the player): which pieces are
 * verified, written beside the task's folder as the raw bitfield (`<dir>.pieces`, at most twice a second), and which
 * pieces a player waits for, read from `<dir>.wanted` ({from, to} pieces) each second and made critical.
 */
function sharePieces(t, dir) {
  let writing = false;
  let again = false;
  let wanted = '';
  const write = async () => {
    if (writing) return void (again = true);
    writing = true;
    try {
      do {
        again = false;
        // Done or stopped: the server side removes the task's files, and nothing is written after.
        if (t.destroyed || t.done) break;
        await writeFile(`${dir}.pieces.tmp`, Buffer.from(t.bitfield.buffer));
        await rename(`${dir}.pieces.tmp`, `${dir}.pieces`);
        await new Promise((r) => setTimeout(r, 500));
      } while (again);
    } catch {
      // The task's folder went (deleted): nothing to share.
    } finally {
      writing = false;
    }
  };
  const readWanted = async () => {
    const text = await readFile(`${dir}.wanted`, 'utf8').catch(() => '');
    if (!text || text === wanted) return;
    wanted = text;
    try {
      const { from, to } = JSON.parse(text);
      if (Number.isInteger(from) && Number.isInteger(to) && from >= 0 && to >= from && to < t.pieces.length) {
        // Ahead of the file's own selection (selections go by priority), as a file stream's own range is (a plain
        // select() merges into the file's selection and changes nothing); taken from a slower peer if need be.
        t._select(from, to, 1, undefined, true);
        t.critical(from, to);
      }
    } catch {
      // A half-written request: read again next time.
      wanted = '';
    }
  };
  t.on('verified', write);
  void write();
  return { tick: () => void readWanted() };
}

/**
 * Downloads the chosen files of a torrent whose metadata is in, reporting progress each second; gives their content
 * hashes (null when they must be read from disk instead).
 */
async function downloadChosen(job, t, indexes, dir) {
  const shared = sharePieces(t, dir);
  const files = indexes.map((i) => t.files[i]);
  // Each file as soon as it is complete and hashed, so the server can put it in the drive before the rest.
  const hashes = await hashWhileDownloading(t, files, (i, hash) => post({ id: job.id, type: 'file', index: indexes[i], path: files[i].path, hash }));
  t.on('verified', hashes.kick);
  files.forEach((f) => f.select());
  const total = files.reduce((n, f) => n + f.length, 0);
  await new Promise((resolve, reject) => {
    const finish = (err) => {
      clearInterval(timer);
      t.removeListener('download', check);
      if (err) reject(err);
      else resolve();
    };
    const check = () => {
      if (files.every((f) => f.done)) finish();
    };
    const timer = setInterval(() => {
      const received = files.reduce((n, f) => n + Math.min(f.length, f.downloaded), 0);
      post({ id: job.id, type: 'progress', received, total, speed: Math.round(t.downloadSpeed) });
      shared.tick();
      check();
    }, 1000);
    job.onAbort = () => finish(new JobError('Stopped.'));
    t.on('download', check);
    t.on('error', (err) => finish(new JobError(`BitTorrent: ${err?.message ?? err}`)));
    check();
  });
  // Every byte is in: the last message before 'done' says so (the hashes of the last pieces follow at once).
  post({ id: job.id, type: 'progress', received: total, total, speed: Math.round(t.downloadSpeed) });
  try {
    return await hashes.result();
  } catch (err) {
    throw new JobError(`BitTorrent: ${err?.message ?? err}`);
  }
}

async function run(m) {
  const job = { id: m.id, client: newClient(), onAbort: () => {}, answer: null };
  jobs.set(m.id, job);
  try {
    const t = await addAndWait(job, m.source, m.dir, m.timeoutMs);
    if (m.op === 'inspect') return post({ id: m.id, type: 'done', meta: metaOf(t) });
    // The server decides what to fetch (and whether at all) from the metadata.
    const indexes = await new Promise((resolve, reject) => {
      job.answer = resolve;
      job.onAbort = () => reject(new JobError('Stopped.'));
      post({ id: m.id, type: 'meta', meta: metaOf(t) });
    });
    if (!indexes) return post({ id: m.id, type: 'done', meta: null });
    const hashes = await downloadChosen(job, t, indexes, m.dir);
    post({ id: m.id, type: 'done', meta: metaOf(t), paths: indexes.map((i) => t.files[i].path), hashes });
  } catch (err) {
    post({ id: m.id, type: 'error', message: err.message, retryable: err.retryable ?? true });
  } finally {
    jobs.delete(m.id);
    await new Promise((r) => job.client.destroy(() => r()));
    // Every client is closed (its files too): the server side may end the thread.
    if (jobs.size === 0) post({ type: 'idle' });
  }
}

parentPort.on('message', (m) => {
  if (m.op === 'inspect' || m.op === 'download') void run(m);
  else if (m.op === 'answer') jobs.get(m.id)?.answer?.(m.indexes);
  else if (m.op === 'abort') jobs.get(m.id)?.onAbort();
});

// Strangers' peers and trackers reach this thread: an error nobody caught fails its job, not the thread.
process.on('uncaughtException', (err) => {
  console.warn(`BitTorrent thread: ${err?.message ?? err}`);
});
post({ type: 'ready' });
