/** Probing stored content once: the result (or why it failed) is remembered by content hash. */
import type { AppContext } from '../context.js';
import { isDatabaseUnavailable, isDiskFull } from '../http/errors.js';
import { withBlobFile } from './media-blobs.js';
import { probeAudio, probeImage, probeVideo, type MediaProbe } from './media-probe.js';
import { findProbe, saveProbe, type StoredProbe } from './media.repository.js';
import { createLimiter } from './limiter.js';
import { isTransient, MediaToolError } from './media-tools.js';

const inFlight = new Map<string, Promise<StoredProbe>>();
/** Probes run at once by this process: many files opened together queue instead of starting an ffprobe each. */
const probing = createLimiter(2);

/**
 * What the content holds as video or audio. Unreadable content is remembered as such (with the reason); a missing
 * tool or a run that timed out is not, so it is tried again later.
 */
export function probeContent(ctx: AppContext, hash: string, kind: 'video' | 'audio' | 'image'): Promise<StoredProbe> {
  const key = `${kind}:${hash}`;
  let p = inFlight.get(key);
  if (!p) {
    p = (async () => {
      const known = await findProbe(ctx.db, hash, kind);
      if (known) return known;
      let result: StoredProbe;
      try {
        const probe = await probing(() =>
          withBlobFile<MediaProbe>(ctx, hash, (path) =>
            kind === 'video' ? probeVideo(ctx.config, path) : kind === 'audio' ? probeAudio(path) : probeImage(path),
          ),
        );
        result = { probe, error: '' };
      } catch (err) {
        // A missing tool, an overloaded machine or a blob not at hand says nothing about the content: not remembered.
        if (!(err instanceof MediaToolError)) return { probe: null, error: 'The media could not be read right now.' };
        if (isTransient(err)) return { probe: null, error: err.message };
        result = { probe: null, error: err.message };
      }
      // Remembering it is a saving, not a need: a full disk or an absent database must not fail the read that asked.
      await saveProbe(ctx.db, hash, kind, result, ctx.clock.now()).catch((err: unknown) => {
        if (!isDiskFull(err) && !isDatabaseUnavailable(err)) throw err;
      });
      return result;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return p;
}
