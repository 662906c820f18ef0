/**
 * What the S3 upload store (s3-upload-store.ts) keeps in memory between requests: running hashers, so the next
 * request goes on without reading `.b3`, and what getUpload found, so the write of the same request does not ask the
 * bucket again.
 */
import type { ThreadedHasher } from '../storage/threaded-hasher.js';
import type { ContentWrite, Listed } from './s3-upload-state.js';

/** How long what a request's getUpload found may stand in for what its write would ask the bucket again. */
const FRESH_MS = 30_000;

/** A running hasher kept between requests, with the upload offset it stands at. */
export interface KeptHasher {
  offset: number;
  hasher: ThreadedHasher;
  content?: ContentWrite;
}

/** Running hashers by upload, at most `max` (the oldest closed past that). */
export class KeptHashers {
  private readonly kept = new Map<string, KeptHasher>();
  constructor(private readonly max: number) {}

  /** The hasher kept for `id` if it stands at `offset`; taken either way (one at another offset is closed). */
  take(id: string, offset: number): KeptHasher | null {
    const kept = this.kept.get(id);
    if (!kept) return null;
    this.kept.delete(id);
    if (kept.offset === offset) return kept;
    kept.hasher.close();
    return null;
  }

  keep(id: string, entry: KeptHasher): void {
    this.kept.set(id, entry);
    for (const [old, k] of this.kept) {
      if (this.kept.size <= this.max) break;
      this.kept.delete(old);
      k.hasher.close();
    }
  }

  /** Closes and drops the hasher kept for `id`. */
  drop(id: string): void {
    this.kept.get(id)?.hasher.close();
    this.kept.delete(id);
  }
}

/** What getUpload found, by upload, taken by the write of the same request (under the upload's lock). */
export class Listings {
  private readonly listed = new Map<string, Listed>();

  set(id: string, listed: Listed): void {
    this.listed.set(id, listed);
  }

  /** What was found for `id` if it is recent enough to stand in for the bucket; left in place. */
  fresh(id: string): Listed | null {
    const listed = this.listed.get(id);
    return listed && Date.now() - listed.at < FRESH_MS ? listed : null;
  }

  /** As `fresh`, but taken either way. */
  take(id: string): Listed | null {
    const listed = this.fresh(id);
    this.listed.delete(id);
    return listed;
  }

  delete(id: string): void {
    this.listed.delete(id);
  }
}
