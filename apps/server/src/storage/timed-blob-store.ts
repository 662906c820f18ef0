/**
 * A blob store that times every call of the store it wraps, whichever that is (local folder, S3): a promise until it
 * settles, a read stream until its first byte (what the store costs, not how fast the client drains it).
 */
import { pipeline, Readable, Transform } from 'node:stream';
import type { Histogram } from 'prom-client';
import type { BlobStore } from './blob-store.js';

type Timer = Pick<Histogram<'operation' | 'outcome'>, 'observe'>;

/** `inner` with each method timed into `histogram` under its name; other properties pass through untouched. */
export function timedBlobStore<T extends BlobStore>(inner: T, histogram: Timer): T {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'constructor') return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const done = (outcome: 'ok' | 'error') => histogram.observe({ operation: prop, outcome }, (performance.now() - started) / 1000);
        let result: unknown;
        try {
          result = value.apply(target, args);
        } catch (err) {
          done('error');
          throw err;
        }
        if (result instanceof Readable) return firstByteTimed(result, done);
        if (result instanceof Promise) {
          return result.then(
            (v) => (done('ok'), v),
            (err) => {
              done('error');
              throw err;
            },
          );
        }
        return result;
      };
    },
  });
}

/** The same bytes; the first chunk (or the end, or an error) stops the clock. Destroying either end destroys both. */
function firstByteTimed(source: Readable, done: (outcome: 'ok' | 'error') => void): Readable {
  let timed = false;
  const once = (outcome: 'ok' | 'error') => {
    if (!timed) done(outcome);
    timed = true;
  };
  const tap = new Transform({
    transform(chunk, _enc, cb) {
      once('ok');
      cb(null, chunk);
    },
    flush(cb) {
      once('ok');
      cb();
    },
  });
  pipeline(source, tap, (err) => {
    if (err) once('error');
  });
  return tap;
}
