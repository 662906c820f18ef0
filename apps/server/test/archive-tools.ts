/** Archive tests' tools: real archivers (7zz from npm, Debian's zip, tar), and reading what landed in the drive. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TokenResponse } from '@haul/shared';
import { sevenZipPath } from '../src/archives/seven-zip.js';
import type { TestHaul } from './helper.js';
import { scratchDir } from './scratch.js';

/** A tool the tests need; missing, it fails with the step that installs it (never a skipped test). */
export function requireTool(bin: string, install: string): string {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'pipe' });
    return bin;
  } catch {
    throw new Error(`The archive tests need \`${bin}\`: ${install}`);
  }
}

/** The npm package's 7zz (fails naming `npm install` when it is missing). */
export const Z7 = () => sevenZipPath(null);

/** A scratch folder with `files` (path → content) written into it. */
export function tree(files: Record<string, string | Buffer>): string {
  const dir = scratchDir('haul-arc-');
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
}

/** Runs an archiver in `cwd` and returns the archive's bytes. */
export function pack(cwd: string, bin: string, args: string[], out: string): Buffer {
  execFileSync(bin, args, { cwd, stdio: 'pipe' });
  return readFileSync(join(cwd, out));
}

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Uploads `bytes` as `name` at the root and returns the file id. */
export async function upload(h: TestHaul, t: TokenResponse, name: string, bytes: Buffer, parentId = ''): Promise<string> {
  return (await h.putFile(t, parentId, name, bytes)).id as string;
}

/** Waits for a task to leave the queue and returns it. */
export async function settle(h: TestHaul, token: string, taskId: string, ms = 30_000): Promise<any> {
  const end = Date.now() + ms;
  for (;;) {
    const res = await h.api('GET', `/decompress/v1/progress?task_id=${taskId}`, token);
    const phase = res.body?.task?.phase;
    if (phase === 'PHASE_TYPE_COMPLETE' || phase === 'PHASE_TYPE_ERROR') return res.body;
    if (Date.now() > end) throw new Error(`task ${taskId} did not finish: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every file under a folder, as path → SHA-256 of its bytes (read from the store). */
export async function drivedTree(h: TestHaul, userId: string, folderId: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const rows = await h.ctx.db.selectFrom('files').selectAll().where('user_id', '=', userId).where('parent_id', '=', folderId).where('trashed', '=', 0).execute();
  for (const r of rows) {
    if (r.kind === 'drive#folder') Object.assign(out, await drivedTree(h, userId, r.id, `${prefix}${r.name}/`));
    else {
      const chunks: Buffer[] = [];
      for await (const c of h.ctx.blobs.read(r.hash)) chunks.push(c as Buffer);
      out[`${prefix}${r.name}`] = sha256(Buffer.concat(chunks));
    }
  }
  return out;
}

/** Lists an archive through the API. */
export function list(h: TestHaul, token: string, fileId: string, extra: Record<string, unknown> = {}) {
  return h.api('POST', '/decompress/v1/list', token, { file_id: fileId, ...extra });
}

/** Starts unpacking through the API. */
export function decompress(h: TestHaul, token: string, fileId: string, extra: Record<string, unknown> = {}) {
  return h.api('POST', '/decompress/v1/decompress', token, { file_id: fileId, ...extra });
}
