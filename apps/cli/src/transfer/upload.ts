/**
 * One file up, as the web app does it: hash it (BLAKE3; a large file only when its sampled content id is stored
 * already), ask the server for an upload (instant, after proof of possession, when the content is stored), else send
 * the bytes over tus. The upload's client id is derived from the file (path, size, modification time) and where it
 * goes, so running the same command again after a kill finds the unfinished upload and continues from the server's
 * offset instead of starting over.
 */
import { createHash } from 'node:crypto';
import { createReadStream, openAsBlob, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CreateFileBody, DriveFile } from '@haul/shared';
import { CID_THRESHOLD_BYTES, describeError, LIMITS, PHASE } from '@haul/shared/plain';
import { hashChallenge, sampleContentId, type HaulClient } from '@haul/client';
import { CliError, EXIT } from '../output.js';
import { hashFile } from './hash-file.js';

export interface Uploaded {
  file: DriveFile;
  /** True when the content was stored already and no bytes were sent. */
  instant: boolean;
  /** Bytes sent by this run (a resumed upload sends only the rest). */
  sent: number;
}

/** Upload phases for the progress line: hashing reads the file once, sending writes it once. */
export type Phase = 'hashing' | 'sending';

/** The client id of an upload of `path` into `parentId` as `name`. */
export function uploadKey(path: string, parentId: string, name: string): string {
  const st = statSync(path);
  return createHash('sha256').update(JSON.stringify([resolve(path), st.size, Math.trunc(st.mtimeMs), parentId, name])).digest('base64url').slice(0, 40);
}

export interface UploadOptions {
  /** The file's BLAKE3 hash when the caller has it already (it compared the file with a namesake): not read twice. */
  hash?: string;
  /** A live file of the same name in the folder goes to the trash when this one is placed (the server's `replace`). */
  replace?: boolean;
  onProgress?: (phase: Phase, done: number, total: number) => void;
}

/** The BLAKE3 hash of a local file, as the server computes it. */
export async function localHash(path: string, onProgress: (done: number, total: number) => void = () => {}): Promise<string> {
  const size = statSync(path).size;
  let hashed = 0;
  return hashFile(path, (n) => onProgress((hashed += n), size));
}

export async function uploadFile(client: HaulClient, path: string, parentId: string, name: string, opts: UploadOptions = {}): Promise<Uploaded> {
  const onProgress = opts.onProgress ?? (() => {});
  const size = statSync(path).size;
  if (size > LIMITS.maxUploadBytes) throw new CliError(`${path} is larger than the largest file the server takes.`, EXIT.LIMIT);
  const blob = await openAsBlob(path);
  const id = uploadKey(path, parentId, name);
  const base: CreateFileBody = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: parentId, name, size: String(size), id, ...(opts.replace ? { replace: true } : {}) };

  let hash = opts.hash;
  const worthHashing = !hash && (size <= CID_THRESHOLD_BYTES || (await client.call('checkCid', { query: { cid: await sampleContentId(blob), file_size: size } })).exists);
  if (worthHashing) hash = await localHash(path, (done, total) => onProgress('hashing', done, total));
  const asked = await client.call('createFile', { body: { ...base, hash } });
  // Stored already: prove the bytes are here (BLAKE3 of the ranges the server picked) and the file is placed at once.
  const challenge = hash ? asked.proof_of_possession : undefined;
  const answer = challenge
    ? await client.call('createFile', { body: { ...base, hash, proof: { challenge: challenge.challenge, answer: await hashChallenge(blob, challenge.ranges) } } })
    : asked;
  if (answer.file) return { file: answer.file, instant: true, sent: 0 };
  if (!answer.resumable) throw new CliError('The server gave no address to send the bytes to.');
  const taskId = answer.task?.id ?? '';
  const { sent, fileId } = await sendBytes(client, path, answer.resumable.params.upload_url, size, (done) => onProgress('sending', done, size));
  const file = fileId ? await client.call('getFile', { params: { id: fileId } }) : await placedFile(client, taskId);
  return { file, instant: false, sent };
}

/**
 * Sends the file over tus from the offset the server has; answers how many bytes this run sent, and the placed file's
 * id when the last PATCH (or a HEAD that found every byte there) names it, as the server's answer does.
 */
async function sendBytes(client: HaulClient, path: string, uploadUrl: string, size: number, onBytes: (done: number) => void): Promise<{ sent: number; fileId: string }> {
  // Loaded only when bytes are sent: an instant upload, or any other command, does without it.
  const tus = await import('tus-js-client');
  return new Promise((resolvePromise, reject) => {
    /** Where this run began: the server's offset, found by tus-js-client's HEAD. */
    let startOffset: number | undefined;
    const upload = new tus.Upload(createReadStream(path), {
      uploadUrl,
      uploadSize: size,
      chunkSize: 16 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      storeFingerprintForResuming: false,
      async onBeforeRequest(req) {
        const token = await client.token();
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
        req.setHeader('User-Agent', 'haul-cli');
      },
      onProgress: (done) => onBytes(done),
      onChunkComplete(chunk, accepted) {
        startOffset ??= accepted - chunk;
      },
      onSuccess: ({ lastResponse }) => resolvePromise({ sent: size - (startOffset ?? size), fileId: lastResponse.getHeader('Haul-File-Id') ?? '' }),
      onError: (err) => reject(tusFailure(err)),
    });
    upload.start();
  });
}

/** The error object of a failed tus request, as an error people can read. */
function tusFailure(err: Error): Error {
  const body = (err as { originalResponse?: { getBody(): string } }).originalResponse?.getBody();
  try {
    const parsed = JSON.parse(body ?? '') as { error_description?: string };
    if (parsed.error_description) return new CliError(describeError(parsed.error_description));
  } catch {
    // not the error object: keep tus's own words
  }
  return err;
}

/** After the last byte the server checks and stores the file; waits for its task to say so (when no answer named it). */
async function placedFile(client: HaulClient, taskId: string): Promise<DriveFile> {
  for (const seconds of [0.2, 0.5, 1, 2, 3, 5, 10, 30, 60]) {
    const task = await client.call('getTask', { params: { id: taskId } });
    if (task.phase === PHASE.COMPLETE && task.file_id) {
      const file = await client.call('getFile', { params: { id: task.file_id } });
      return file;
    }
    if (task.phase === PHASE.ERROR) throw new CliError(task.message || 'The server could not store the file.');
    await new Promise((r) => setTimeout(r, seconds * 1000));
  }
  throw new CliError('The server has not confirmed the upload yet; run the same command again to check.', EXIT.TEMPORARY);
}
