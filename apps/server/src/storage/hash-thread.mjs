/**
 * The thread behind threaded-hasher.ts: BLAKE3 (hash-wasm) for every hasher of the process. One
 * WebAssembly instance serves them all; each hasher's state (under 2 KB) is parked while another
 * runs, so a hasher that is never finished costs only its parked state, never an instance.
 * Plain JavaScript so that it runs the same under tsx, Vitest and plain node, with no loader.
 * Messages are handled one at a time, in order, so a digest always follows the updates sent before it.
 */
import { parentPort } from 'node:worker_threads';
import { createBLAKE3 } from 'hash-wasm';

const wasm = await createBLAKE3();
wasm.init();
const fresh = wasm.save();
/** States of the hashers that are not loaded in `wasm`, by id. */
const parked = new Map();
/** The hasher whose state is in `wasm`, if any (none after a digest). */
let current = null;

function park() {
  if (current !== null) parked.set(current, wasm.save());
  current = null;
}

function use(id) {
  if (current === id) return;
  const state = parked.get(id);
  if (!state) throw new Error(`Hasher ${id} has no state: it was never started, or already digested or closed.`);
  park();
  wasm.load(state);
  parked.delete(id);
  current = id;
}

function forget(id) {
  parked.delete(id);
  if (current === id) current = null;
}

function handle(m) {
  switch (m.op) {
    case 'init':
      forget(m.id);
      parked.set(m.id, fresh);
      return parentPort.postMessage({ seq: m.seq });
    case 'update':
      use(m.id);
      wasm.update(new Uint8Array(m.buf, 0, m.length));
      // The batch buffer goes back to be filled again.
      return parentPort.postMessage({ seq: m.seq, buf: m.buf }, [m.buf]);
    case 'save': {
      use(m.id);
      const state = wasm.save();
      return parentPort.postMessage({ seq: m.seq, state }, [state.buffer]);
    }
    case 'load':
      park();
      // load() checks the state before writing it, so a bad one leaves the hasher as it was.
      wasm.load(m.state);
      parked.delete(m.id);
      current = m.id;
      return parentPort.postMessage({ seq: m.seq });
    case 'digest': {
      use(m.id);
      const hex = wasm.digest('hex');
      current = null;
      return parentPort.postMessage({ seq: m.seq, hex });
    }
    case 'free':
      return forget(m.id);
    default:
      throw new Error(`Unknown hashing operation ${m.op}.`);
  }
}

parentPort.on('message', (m) => {
  try {
    handle(m);
  } catch (err) {
    if (m.seq !== undefined) parentPort.postMessage({ seq: m.seq, error: err instanceof Error ? err.message : String(err) });
  }
});
