/**
 * BLAKE3 off the event loop: hashers whose bytes are hashed by one shared worker thread
 * (hash-thread.mjs, hash-wasm inside). Hashing inline cost the server 1.3–1.75 s of event-loop CPU a GB
 * (bench/README.md); here the event loop only copies bytes into 1 MiB batches and posts them.
 * update() never waits for the hash itself: its promise resolves at once until a few MiB are in flight,
 * which bounds memory and slows a producer that outruns the thread.
 */
import { Worker } from 'node:worker_threads';

/** Bytes copied into one message to the thread. */
const BATCH = 1024 * 1024;
/** Posted but not yet hashed, per hasher, before update() makes its caller wait. */
const MAX_IN_FLIGHT = 4 * BATCH;
/** Batch buffers kept for reuse across hashers. */
const SPARE_BUFFERS = 8;
const READY = Promise.resolve();

interface Reply {
  seq: number;
  error?: string;
  buf?: ArrayBuffer;
  state?: Uint8Array;
  hex?: string;
}
type Done = (err: Error | null, reply?: Reply) => void;

/** The one hashing thread of the process; replaced by a new one if it dies. */
class HashThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Done>();
  private readonly spare: ArrayBuffer[] = [];
  private seq = 0;
  private ids = 0;
  /** Hashers created and not yet closed. */
  private openHashers = 0;
  private stopping = false;
  dead: Error | null = null;

  constructor() {
    // No tsx or other loader needed in the thread: it is plain JavaScript.
    this.worker = new Worker(new URL('./hash-thread.mjs', import.meta.url), { execArgv: [] });
    // Only held while a reply is awaited, so an idle thread never keeps the process alive.
    this.worker.unref();
    this.worker.on('message', (m: Reply) => this.settle(m));
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`The hashing thread stopped (exit code ${code}).`)));
  }

  acquire(): number {
    this.openHashers++;
    return ++this.ids;
  }

  release(id: number): void {
    this.openHashers--;
    this.post({ op: 'free', id });
    if (this.stopping && this.openHashers === 0) void this.worker.terminate();
  }

  /** Sends a message whose reply goes to `done`. */
  call(msg: Record<string, unknown>, transfer: ArrayBuffer[], done: Done): void {
    if (this.dead) return done(this.dead);
    const seq = ++this.seq;
    if (this.waiting.size === 0) this.worker.ref();
    this.waiting.set(seq, done);
    this.worker.postMessage({ ...msg, seq }, transfer);
  }

  /** call() as a promise. */
  request(msg: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Reply> {
    return new Promise((resolve, reject) => this.call(msg, transfer, (err, reply) => (err ? reject(err) : resolve(reply!))));
  }

  post(msg: Record<string, unknown>): void {
    if (!this.dead) this.worker.postMessage(msg);
  }

  takeBuffer(): ArrayBuffer {
    return this.spare.pop() ?? new ArrayBuffer(BATCH);
  }

  giveBuffer(buf: ArrayBuffer): void {
    if (buf.byteLength === BATCH && this.spare.length < SPARE_BUFFERS) this.spare.push(buf);
  }

  /** Terminates now when no hasher is open, else once the last one closes. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.openHashers === 0) await this.worker.terminate();
  }

  private settle(m: Reply): void {
    const done = this.waiting.get(m.seq);
    if (!done) return;
    this.waiting.delete(m.seq);
    if (this.waiting.size === 0) this.worker.unref();
    if (m.error !== undefined) done(new Error(m.error), m);
    else done(null, m);
  }

  private fail(err: Error): void {
    this.dead ??= err;
    if (shared === this) shared = null;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const done of waiting) done(this.dead);
  }
}

let shared: HashThread | null = null;

function hashThread(): HashThread {
  shared ??= new HashThread();
  return shared;
}

/** Stops the shared hashing thread (the server's close()); one still hashing stops when its last hasher closes. */
export async function stopHashThread(): Promise<void> {
  const thread = shared;
  shared = null;
  await thread?.stop();
}

/** Reclaims the thread-side state of a hasher that was dropped without close(). */
const unclosed = new FinalizationRegistry<{ thread: HashThread; id: number }>(({ thread, id }) => thread.release(id));

/** A BLAKE3 hasher whose hashing runs on the shared thread. Close it when done, finished or not. */
export class ThreadedHasher {
  private readonly thread = hashThread();
  private readonly id = this.thread.acquire();
  private batch: Uint8Array | null = null;
  private filled = 0;
  private inFlight = 0;
  private drainWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private failed: Error | null = null;
  /** digest() was called: more bytes need init() or load() first. */
  private finished = false;
  private closed = false;

  /** A hasher ready for bytes (started fresh). */
  constructor() {
    unclosed.register(this, { thread: this.thread, id: this.id }, this);
    void this.init().catch(() => undefined);
  }

  /** Starts over from no bytes. */
  async init(): Promise<void> {
    this.live();
    this.dropBatch();
    this.failed = null;
    this.finished = false;
    await this.thread.request({ op: 'init', id: this.id });
  }

  /** Queues bytes to hash (copied, so the caller may reuse `chunk`); wait on the promise to respect backpressure. */
  update(chunk: Uint8Array): Promise<void> {
    try {
      this.usable();
      if (this.finished) throw new Error('This hasher has given its digest: init() or load() before more bytes.');
    } catch (err) {
      return Promise.reject(err);
    }
    for (let at = 0; at < chunk.length; ) {
      this.batch ??= new Uint8Array(this.thread.takeBuffer());
      const n = Math.min(chunk.length - at, BATCH - this.filled);
      this.batch.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === BATCH) this.flush();
    }
    if (this.inFlight < MAX_IN_FLIGHT) return READY;
    return new Promise((resolve, reject) => this.drainWaiters.push({ resolve, reject }));
  }

  /** The hex BLAKE3 of every byte given since init() or load(); after it, only init() or load() go on. */
  async digest(): Promise<string> {
    this.usable();
    this.flush();
    this.finished = true;
    return (await this.thread.request({ op: 'digest', id: this.id })).hex!;
  }

  /** The hasher's state, to load() later (here or in another process running the same hash-wasm). */
  async save(): Promise<Uint8Array> {
    this.usable();
    this.flush();
    return (await this.thread.request({ op: 'save', id: this.id })).state!;
  }

  /** Continues from a saved state; a state that does not fit rejects and leaves the hasher as it was. */
  async load(state: Uint8Array): Promise<void> {
    this.live();
    this.flush();
    const copy = new Uint8Array(state);
    await this.thread.request({ op: 'load', id: this.id, state: copy }, [copy.buffer]);
    this.failed = null;
    this.finished = false;
  }

  /** Frees the thread-side state; bytes still queued are dropped. Safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    unclosed.unregister(this);
    this.dropBatch();
    this.thread.release(this.id);
  }

  /** Throws unless the hasher is open on a live thread. */
  private live(): void {
    if (this.closed) throw new Error('This hasher is closed.');
    if (this.thread.dead) throw this.thread.dead;
  }

  /** Throws unless live() holds and every batch so far was hashed. */
  private usable(): void {
    this.live();
    if (this.failed) throw this.failed;
  }

  private dropBatch(): void {
    if (this.batch) this.thread.giveBuffer(this.batch.buffer as ArrayBuffer);
    this.batch = null;
    this.filled = 0;
  }

  private flush(): void {
    if (!this.filled) return;
    const buf = this.batch!.buffer as ArrayBuffer;
    const length = this.filled;
    this.batch = null;
    this.filled = 0;
    this.inFlight += length;
    this.thread.call({ op: 'update', id: this.id, buf, length }, [buf], (err, reply) => {
      this.inFlight -= length;
      if (reply?.buf) this.thread.giveBuffer(reply.buf);
      if (err) this.failed ??= err;
      if (this.inFlight >= MAX_IN_FLIGHT && !this.failed) return;
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) (this.failed ? w.reject(this.failed) : w.resolve());
    });
  }
}
