/** haul ls, mkdir, mv and rm: the drive's folders from the command line. */
import type { DriveFile } from '@haul/shared';
import { FOLDER_KIND, formatSize } from '@haul/shared/plain';
import type { Ctx } from '../context.js';
import { ensureFolder, isFolder, listAll, resolveFolder, resolveItem, segments, splitParent, childNamed, ROOT, type Item } from '../drive-paths.js';
import { CliError, EXIT } from '../output.js';

const when = (iso: string) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

/** One line of `ls -l`: kind, size, modified, name (a folder's name ends in /). */
export function longLine(f: DriveFile): string {
  const size = isFolder(f) ? '-' : formatSize(f.size);
  return `${isFolder(f) ? 'd' : '-'}  ${size.padStart(9)}  ${when(f.modified_time)}  ${f.name}${isFolder(f) ? '/' : ''}`;
}

export async function ls(ctx: Ctx, ref: string | undefined, opts: { long?: boolean }): Promise<void> {
  const item = await resolveItem(ctx.client, ref ?? '/');
  const files: DriveFile[] = [];
  if (isFolder(item)) for await (const f of listAll(ctx.client, item.id)) files.push(f);
  else files.push(item as DriveFile);
  ctx.out.result(files, () => (files.length ? files.map((f) => (opts.long ? longLine(f) : `${f.name}${isFolder(f) ? '/' : ''}`)).join('\n') : '(empty)'));
}

export async function mkdir(ctx: Ctx, paths: string[], opts: { parents?: boolean }): Promise<void> {
  const made: DriveFile[] = [];
  for (const path of paths) {
    if (opts.parents) {
      let at: Item = ROOT;
      for (const name of segments(path)) at = await ensureFolder(ctx.client, at.id, name);
      made.push(at as DriveFile);
      continue;
    }
    const [parentPath, name] = splitParent(path);
    const parent = await resolveFolder(ctx.client, parentPath);
    const existing = await childNamed(ctx.client, parent.id, name);
    if (existing) throw new CliError(`"${path}" exists already.`, EXIT.CONFLICT);
    const answer = await ctx.client.call('createFile', { body: { kind: FOLDER_KIND, parent_id: parent.id, name } });
    made.push(answer.file!);
  }
  ctx.out.result(made, () => made.map((f) => `Made ${f.name}/ (${f.id})`).join('\n'));
}

/** mv SRC… DEST: into DEST when it is a folder; one SRC to a new name (in another folder too) otherwise. */
export async function mv(ctx: Ctx, refs: string[]): Promise<void> {
  const destRef = refs.pop()!;
  if (refs.length === 0) throw new CliError('Name what to move and where: haul mv SOURCE… DESTINATION', EXIT.USAGE);
  const sources = await Promise.all(refs.map((r) => resolveItem(ctx.client, r)));
  if (sources.some((s) => s.id === '')) throw new CliError('The top of the drive cannot be moved.', EXIT.USAGE);
  const dest = await resolveItem(ctx.client, destRef).catch((err) => (err instanceof CliError && err.exitCode === EXIT.NOT_FOUND ? null : Promise.reject(err)));
  if (dest && isFolder(dest)) {
    await ctx.client.call('batchMove', { body: { ids: sources.map((s) => s.id), to: { parent_id: dest.id } } });
    ctx.out.result({ moved: sources.map((s) => s.id), to: dest.id }, () => `Moved ${sources.length} item${sources.length === 1 ? '' : 's'} into ${destRef}.`);
    return;
  }
  if (dest) throw new CliError(`"${destRef}" exists already.`, EXIT.CONFLICT);
  if (sources.length > 1) throw new CliError(`"${destRef}" is not a folder; several items can only move into a folder.`, EXIT.USAGE);
  const [parentPath, name] = splitParent(destRef);
  const parent = await resolveFolder(ctx.client, parentPath);
  const src = sources[0] as DriveFile;
  if (src.parent_id !== parent.id) await ctx.client.call('batchMove', { body: { ids: [src.id], to: { parent_id: parent.id } } });
  const renamed = src.name === name ? await ctx.client.call('getFile', { params: { id: src.id } }) : await ctx.client.call('updateFile', { params: { id: src.id }, body: { name } });
  ctx.out.result(renamed, () => `Moved ${src.name} to ${parentPath.replace(/\/$/, '')}/${renamed.name}.`);
}

export async function rm(ctx: Ctx, refs: string[], opts: { permanent?: boolean }): Promise<void> {
  const items = await Promise.all(refs.map((r) => resolveItem(ctx.client, r)));
  if (items.some((i) => i.id === '')) throw new CliError('The top of the drive cannot be removed.', EXIT.USAGE);
  const ids = items.map((i) => i.id);
  await ctx.client.call(opts.permanent ? 'batchDelete' : 'batchTrash', { body: { ids } });
  ctx.out.result({ [opts.permanent ? 'deleted' : 'trashed']: ids }, () =>
    opts.permanent ? `Deleted ${ids.length} item${ids.length === 1 ? '' : 's'} for good.` : `Moved ${ids.length} item${ids.length === 1 ? '' : 's'} to the trash.`,
  );
}
