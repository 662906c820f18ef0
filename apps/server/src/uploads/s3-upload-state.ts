/**
 * The pieces of the S3 upload store (s3-upload-store.ts) that are not the store itself: the hasher state kept as
 * `uploads/<id>.b3`, what a write to a content key carries, and the SDK client that puts keys under `uploads/`.
 */
import type { S3 } from '@aws-sdk/client-s3';
import type { Part } from '@aws-sdk/client-s3';
import type { S3Store } from '@tus/s3-store';
import { ThreadedHasher } from '../storage/threaded-hasher.js';

/** The hasher state saved after each write as `<id>.b3`. */
export interface SavedState {
  /** Bytes the state has seen (at the content key: the whole parts up to `parts`). */
  offset: number;
  state: string;
  /** At the content key: the last part the state covers, the tail beyond it, and once all is hashed the digest. */
  parts?: number;
  tail?: { etag: string; size: number } | null;
  digest?: string;
}

export type Metadata = Awaited<ReturnType<S3Store['getMetadata']>>;

/** A write to a content key under way: its hasher and where the parts stand. */
export interface ContentWrite {
  key: string;
  hash: string;
  hasher: ThreadedHasher;
  hashed: number;
  parts: number;
  tail: { etag: string; size: number } | null;
  /** Whether the tail the state names is the one in the bucket (so the request goes on after it). */
  tailValid: boolean;
  done: boolean;
  /** Whether tus's write asked for the parts already (its first question only needs the next part number). */
  numbered?: boolean;
}

/** What getUpload found, for the write that follows it in the same request (under the upload's lock). */
export interface Listed {
  at: number;
  /** Parts listed (uploads/ gathering), taken once by the write; and whether no tail waits (so none is fetched). */
  parts?: Part[];
  noTail?: boolean;
  /** Content key: the saved state and whether its tail is the bucket's. */
  saved?: SavedState | null;
  tailValid?: boolean;
}

/** The SDK client with every object key under `prefix`: the tus store names keys after the bare upload id. */
export function underPrefix(client: S3, prefix: string): S3 {
  const prefixed = (params: unknown): unknown => {
    if (!params || typeof params !== 'object') return params;
    const p = { ...(params as Record<string, unknown>) };
    if (typeof p.Key === 'string') p.Key = prefix + p.Key;
    const del = p.Delete as { Objects?: { Key?: string }[] } | undefined;
    if (del?.Objects) p.Delete = { ...del, Objects: del.Objects.map((o) => ({ ...o, Key: prefix + o.Key })) };
    return p;
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      // The SDK's named methods take their input first; `send` and the rest pass through untouched.
      if (typeof v !== 'function' || prop === 'send' || typeof prop !== 'string' || !/^[a-z]/.test(prop)) return v;
      return (params: unknown, ...rest: unknown[]) => (v as (...a: unknown[]) => unknown).call(target, prefixed(params), ...rest);
    },
  });
}

export function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.name === 'NoSuchUpload' || e?.$metadata?.httpStatusCode === 404;
}

/** Whether a kept write stands where the saved state does. */
export function sameState(saved: SavedState | null, w: ContentWrite): boolean {
  return (saved?.offset ?? 0) === w.hashed && (saved?.parts ?? 0) === w.parts && (saved?.tail?.etag ?? null) === (w.tail?.etag ?? null) && saved?.digest === undefined;
}

/** A content-key upload's offset: the whole parts its state covers, and the tail after them when that is the bucket's. */
export function contentOffset(saved: SavedState | null, tailValid: boolean): number {
  return (saved?.offset ?? 0) + (tailValid && saved?.tail ? saved.tail.size : 0);
}

export async function loadedHasher(saved: SavedState | null): Promise<ThreadedHasher> {
  const hasher = new ThreadedHasher();
  try {
    if (saved?.state) await hasher.load(Buffer.from(saved.state, 'base64'));
    return hasher;
  } catch (err) {
    hasher.close();
    throw err;
  }
}

export const savedOf = async (hasher: ThreadedHasher) => Buffer.from(await hasher.save()).toString('base64');
