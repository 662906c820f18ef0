/** haul add LINK|MAGNET|FILE.torrent… and haul tasks [--watch]: cloud downloads and their progress. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { CreateFileBody, DriveTask } from '@haul/shared';
import { formatSize, PHASE } from '@haul/shared/plain';
import type { Ctx } from '../context.js';
import { resolveFolder } from '../drive-paths.js';
import { CliError, EXIT } from '../output.js';

const SHORT: Record<string, string> = {
  [PHASE.PENDING]: 'waiting',
  [PHASE.RUNNING]: 'running',
  [PHASE.PAUSED]: 'paused',
  [PHASE.ERROR]: 'failed',
  [PHASE.COMPLETE]: 'done',
};
const ENDED: string[] = [PHASE.COMPLETE, PHASE.ERROR];

export function taskLine(t: DriveTask): string {
  const size = Number(t.file_size) > 0 ? formatSize(t.file_size) : '';
  const why = t.phase === PHASE.ERROR && t.message ? `  (${t.message})` : '';
  return `${(SHORT[t.phase] ?? t.phase).padEnd(8)} ${String(Math.round(t.progress)).padStart(3)}%  ${size.padStart(9)}  ${t.name}${why}`;
}

export async function add(ctx: Ctx, sources: string[], opts: { to?: string; watch?: boolean }): Promise<void> {
  const folder = await resolveFolder(ctx.client, opts.to ?? '/');
  const torrents = sources.filter((s) => s.toLowerCase().endsWith('.torrent') && existsSync(s) && statSync(s).isFile());
  const links = sources.filter((s) => !torrents.includes(s));
  const base: CreateFileBody = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', parent_id: folder.id };
  const tasks: DriveTask[] = [];
  if (links.length) tasks.push(...((await ctx.client.call('createFile', { body: { ...base, url: { url: links.join('\n') } } })).tasks ?? []));
  for (const t of torrents) {
    const torrent = readFileSync(t).toString('base64');
    tasks.push(...((await ctx.client.call('createFile', { body: { ...base, url: { url: '' }, torrent } })).tasks ?? []));
  }
  if (!tasks.length) throw new CliError('Nothing to add: give HTTP(S) links, magnet links or .torrent files.', EXIT.USAGE);
  if (opts.watch) {
    ctx.out.note(tasks.map((t) => `Added ${t.id}: ${t.name}`).join('\n'));
    return watch(ctx, tasks.map((t) => t.id));
  }
  ctx.out.result(tasks, () => tasks.map((t) => `Added ${t.id}: ${t.name}`).join('\n') + '\nWatch them with `haul tasks --watch`.');
}

async function fetchTasks(ctx: Ctx, ids?: string[]): Promise<DriveTask[]> {
  const filters = ids ? JSON.stringify({ id: { in: ids.join(',') } }) : undefined;
  const page = await ctx.client.call('listTasks', { query: { type: 'offline', limit: 200, filters } });
  return page.tasks;
}

/** Fails with NOT_FOUND, naming them, when some of the ids asked for are no cloud download of this account. */
function requireAll(ids: string[], list: DriveTask[]): void {
  const known = new Set(list.map((t) => t.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) {
    const which = missing.map((id) => `"${id}"`).join(', ');
    const words = missing.length > 1 ? `No cloud downloads ${which} exist` : `No cloud download ${which} exists`;
    throw new CliError(`${words}; \`haul tasks\` lists yours.`, EXIT.NOT_FOUND);
  }
}

export async function tasks(ctx: Ctx, ids: string[], opts: { watch?: boolean }): Promise<void> {
  if (opts.watch) return watch(ctx, ids.length ? ids : undefined);
  const list = await fetchTasks(ctx, ids.length ? ids : undefined);
  requireAll(ids, list);
  ctx.out.result(list, () => (list.length ? list.map(taskLine).join('\n') : 'No cloud downloads.'));
}

/**
 * Shows the tasks until every one has ended: redrawn in place on a terminal, a line per change elsewhere. Exit code:
 * 0 when all completed, PARTIAL when some failed, ERROR when all did.
 */
async function watch(ctx: Ctx, ids?: string[]): Promise<void> {
  const tty = !!process.stdout.isTTY && !ctx.out.json;
  const seen = new Map<string, string>();
  let drawn = 0;
  let list: DriveTask[];
  // Without ids: the tasks that are not over when the watch starts.
  const watched = ids ?? (await fetchTasks(ctx)).filter((t) => !ENDED.includes(t.phase)).map((t) => t.id);
  if (!watched.length) {
    ctx.out.result([], () => 'No cloud download is running.');
    return;
  }
  // Checked once, before watching: a task deleted while it is watched just leaves the list.
  if (ids) requireAll(ids, await fetchTasks(ctx, ids));
  for (;;) {
    list = await fetchTasks(ctx, watched);
    if (tty) {
      if (drawn) process.stdout.write(`\x1b[${drawn}A\x1b[J`);
      process.stdout.write(list.map(taskLine).join('\n') + '\n');
      drawn = list.length;
    } else if (!ctx.out.json) {
      for (const t of list) {
        const line = taskLine(t);
        if (seen.get(t.id) !== line) process.stdout.write(`${line}\n`);
        seen.set(t.id, line);
      }
    }
    if (list.every((t) => ENDED.includes(t.phase))) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  if (ctx.out.json) ctx.out.result(list, () => '');
  const failed = list.filter((t) => t.phase === PHASE.ERROR).length;
  if (failed) throw new CliError(`${failed} of ${list.length} cloud download${list.length === 1 ? '' : 's'} failed.`, failed === list.length ? EXIT.ERROR : EXIT.PARTIAL);
}
