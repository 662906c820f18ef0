/**
 * Drive paths on the command line: "/Photos/2026" (from the top), or an item's id. Names are matched exactly; a
 * folder holds one item of a name, so a path names one item.
 */
import type { DriveFile } from '@haul/shared';
import { FOLDER_KIND, PHASE } from '@haul/shared/plain';
import type { HaulClient } from '@haul/client';
import { CliError, EXIT } from './output.js';

/** The top level, which has no file of its own. */
export const ROOT = { id: '', kind: FOLDER_KIND, name: '/' } as const;
export type Item = DriveFile | typeof ROOT;

export const isFolder = (i: Pick<Item, 'kind'>) => i.kind === FOLDER_KIND;
const LIVE = { trashed: { eq: false }, phase: { eq: PHASE.COMPLETE } };

/** Every live item of a folder, page by page; `nameContains` narrows on the server. */
export async function* listAll(client: HaulClient, parentId: string, nameContains?: string): AsyncGenerator<DriveFile> {
  let pageToken = '';
  do {
    const filters = nameContains ? { ...LIVE, name: { contains: nameContains } } : LIVE;
    const page = await client.call('listFiles', { query: { parent_id: parentId, limit: 500, page_token: pageToken || undefined, filters: JSON.stringify(filters) } });
    yield* page.files;
    pageToken = page.next_page_token;
  } while (pageToken);
}

export async function childNamed(client: HaulClient, parentId: string, name: string): Promise<DriveFile | undefined> {
  for await (const f of listAll(client, parentId, name)) if (f.name === name) return f;
  return undefined;
}

export const segments = (path: string) => path.split('/').filter((s) => s && s !== '.');

/** The item a reference names: a path from the top ("/a/b", "a/b") or an id. */
export async function resolveItem(client: HaulClient, ref: string): Promise<Item> {
  const parts = segments(ref);
  if (parts.length === 0) return ROOT;
  if (!ref.startsWith('/') && parts.length === 1) {
    const byName = await childNamed(client, '', parts[0]!);
    if (byName) return byName;
    const byId = await client.call('getFile', { params: { id: parts[0]! } }).catch(() => undefined);
    if (byId && !byId.trashed) return byId;
    throw new CliError(`"${ref}" is neither an item at the top of the drive nor an id.`, EXIT.NOT_FOUND);
  }
  let at: Item = ROOT;
  for (const [i, name] of parts.entries()) {
    if (!isFolder(at)) throw new CliError(`"/${parts.slice(0, i).join('/')}" is a file, not a folder.`, EXIT.NOT_FOUND);
    const next = await childNamed(client, at.id, name);
    if (!next) throw new CliError(`No "${name}" in "/${parts.slice(0, i).join('/')}".`, EXIT.NOT_FOUND);
    at = next;
  }
  return at;
}

export async function resolveFolder(client: HaulClient, ref: string): Promise<Item> {
  const item = await resolveItem(client, ref);
  if (!isFolder(item)) throw new CliError(`"${ref}" is a file, not a folder.`, EXIT.USAGE);
  return item;
}

/** The folder `name` in `parentId`: the one there, or a new one. */
export async function ensureFolder(client: HaulClient, parentId: string, name: string): Promise<DriveFile> {
  const existing = await childNamed(client, parentId, name);
  if (existing) {
    if (!isFolder(existing)) throw new CliError(`"${name}" exists and is a file, not a folder.`, EXIT.CONFLICT);
    return existing;
  }
  const made = await client.call('createFile', { body: { kind: FOLDER_KIND, parent_id: parentId, name } });
  return made.file!;
}

/** "/a/b/c" → ["/a/b", "c"]. */
export function splitParent(path: string): [string, string] {
  const parts = segments(path);
  const name = parts.pop();
  if (!name) throw new CliError('The top of the drive has no name to give.', EXIT.USAGE);
  return [`/${parts.join('/')}`, name];
}

/**
 * The folder a path names, made when missing, with the folders above it (as `mkdir -p`); answers it and the paths of
 * the folders made.
 */
export async function makeFolders(client: HaulClient, ref: string): Promise<{ folder: Item; made: string[] }> {
  try {
    return { folder: await resolveFolder(client, ref), made: [] };
  } catch (err) {
    if (!(err instanceof CliError) || err.exitCode !== EXIT.NOT_FOUND) throw err;
  }
  let at: Item = ROOT;
  const made: string[] = [];
  const parts = segments(ref);
  for (const [i, name] of parts.entries()) {
    const path = `/${parts.slice(0, i + 1).join('/')}`;
    const next = await childNamed(client, at.id, name);
    if (next && !isFolder(next)) throw new CliError(`"${path}" is a file, not a folder.`, EXIT.CONFLICT);
    if (next) {
      at = next;
      continue;
    }
    at = (await client.call('createFile', { body: { kind: FOLDER_KIND, parent_id: at.id, name } })).file!;
    made.push(path);
  }
  return { folder: at, made };
}
