/**
 * Properties of a resource: the live ones computed from the file row (RFC 4918 §15, quotas RFC 4331), and dead ones
 * set by clients, kept per file in dav_props as the XML they were set with.
 */
import { FOLDER_KIND } from '@haul/shared';
import type { Db } from '../db/database.js';
import { subtreeRows } from '../files/files.repository.js';
import { checksumsXml, OC_NS } from './checksums.js';
import { MS_NS } from './mtime.js';
import { DAV, emptyElement, escapeXml } from './xml.js';
import { DavError, type Lock } from './locks.js';
import { accountFits, lockedPropUsage } from './prop-limits.js';
import { hrefOf } from './paths.js';
import type { Resource } from './tree.js';

/** Live properties, in the order allprop answers them. Quotas are left out of allprop (RFC 4331 §3). */
export const LIVE = ['resourcetype', 'displayname', 'creationdate', 'getlastmodified', 'getcontentlength', 'getcontenttype', 'getetag', 'supportedlock', 'lockdiscovery', 'quota-available-bytes', 'quota-used-bytes'] as const;
const NOT_IN_ALLPROP = new Set(['quota-available-bytes', 'quota-used-bytes']);

/**
 * Live properties outside DAV:, asked for by name (never in allprop): ownCloud's file id and checksums, which sync
 * clients read, and the modified time as Windows names it (it sets it with PROPPATCH after every upload).
 */
const OTHER_LIVE: [ns: string, local: string][] = [
  [OC_NS, 'fileid'],
  [OC_NS, 'id'],
  [OC_NS, 'checksums'],
  [MS_NS, 'Win32LastModifiedTime'],
];

export const isLive = (ns: string, local: string) =>
  (ns === DAV && (LIVE as readonly string[]).includes(local)) || OTHER_LIVE.some(([n, l]) => n === ns && l === local);

/** What every resource of one answer shares: the account's space, its locks, and the SHA-1s read for the page. */
export interface PropContext {
  used: number;
  available: number;
  locks: Lock[];
  /** SHA-1 by content hash, for oc:checksums; filled only when asked for. */
  sha1: Map<string, string>;
}

/**
 * The ETag of a file: the first 128 bits of its content hash. Whole hashes made If headers long enough that clients
 * with fixed header buffers (litmus's is 200 bytes) cut them off.
 */
export const etagOfHash = (hash: string) => `"${hash.slice(0, 32)}"`;
export const etagOfRow = (r: Resource) => (r.kind === 'item' && r.row.kind !== FOLDER_KIND && r.row.hash ? etagOfHash(r.row.hash) : null);

export function activeLockXml(l: Lock, now: number): string {
  const left = Math.max(0, Math.round((l.expires_at - now) / 1000));
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${l.scope}/></D:lockscope><D:depth>${l.depth}</D:depth>` +
    (l.owner ? l.owner : '') +
    `<D:timeout>Second-${left}</D:timeout><D:locktoken><D:href>${escapeXml(l.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(hrefOf(l.path ? l.path.slice(1).split('/') : [], false))}</D:href></D:lockroot></D:activelock>`
  );
}

/** The value of live property `local` on `r` as XML (the whole element), or null when `r` has none. */
export function liveProp(local: string, r: Resource, names: string[], key: string, pc: PropContext, now: number): string | null {
  const row = r.kind === 'item' ? r.row : null;
  const folder = !row || row.kind === FOLDER_KIND;
  const el = (v: string) => `<D:${local}>${v}</D:${local}>`;
  switch (local) {
    case 'resourcetype':
      return folder ? '<D:resourcetype><D:collection/></D:resourcetype>' : '<D:resourcetype/>';
    case 'displayname':
      return el(escapeXml(names.at(-1) ?? ''));
    case 'creationdate':
      return row ? el(new Date(row.created_time).toISOString()) : null;
    case 'getlastmodified':
      return row ? el(new Date(row.modified_time).toUTCString()) : null;
    case 'getcontentlength':
      return folder ? null : el(String(row!.size));
    case 'getcontenttype':
      return folder ? null : el(escapeXml(row!.mime_type || 'application/octet-stream'));
    case 'getetag': {
      const etag = etagOfRow(r);
      return etag ? el(escapeXml(etag)) : null;
    }
    case 'supportedlock':
      return el(['exclusive', 'shared'].map((s) => `<D:lockentry><D:lockscope><D:${s}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`).join(''));
    case 'lockdiscovery': {
      const held = pc.locks.filter((l) => l.path === key || (l.depth === 'infinity' && (key === l.path || key.startsWith(`${l.path}/`))));
      return el(held.map((l) => activeLockXml(l, now)).join(''));
    }
    case 'quota-available-bytes':
      return el(String(pc.available));
    case 'quota-used-bytes':
      return el(String(pc.used));
    default:
      return null;
  }
}

/** The value of any live property (isLive) on `r` as XML, or null when `r` has none. */
export function liveValue(ns: string, local: string, r: Resource, names: string[], key: string, pc: PropContext, now: number): string | null {
  if (ns === DAV) return liveProp(local, r, names, key, pc, now);
  if (r.kind !== 'item') return null;
  const row = r.row;
  if (ns === MS_NS) return `<${local} xmlns="${MS_NS}">${new Date(row.modified_time).toUTCString()}</${local}>`;
  // The id stays with the file through renames, moves and overwrites, so clients can follow it.
  if (local === 'fileid' || local === 'id') return `<oc:${local} xmlns:oc="${OC_NS}">${escapeXml(row.id)}</oc:${local}>`;
  const sha1 = row.kind === FOLDER_KIND ? undefined : pc.sha1.get(row.hash);
  return sha1 ? checksumsXml(sha1) : null;
}

/** Names of the live properties outside DAV: that `r` has, for propname. */
export const otherLiveNamesOf = (r: Resource, pc: PropContext) =>
  r.kind === 'root' ? [] : OTHER_LIVE.filter(([ns, l]) => !(ns === OC_NS && l === 'checksums' && !pc.sha1.has(r.row.hash))).map(([ns, l]) => emptyElement(ns, l));

/** Live properties `r` has, for allprop and propname. */
export const liveNamesOf = (r: Resource, allprop: boolean) =>
  LIVE.filter((p) => (!allprop || !NOT_IN_ALLPROP.has(p)) && !((r.kind === 'root' || r.row.kind === FOLDER_KIND) && ['getcontentlength', 'getcontenttype', 'getetag'].includes(p)) && !(r.kind === 'root' && ['creationdate', 'getlastmodified'].includes(p)));

export interface DeadProp {
  ns: string;
  name: string;
  value: string;
}

/** Dead properties of the given files, by file id. */
export async function deadProps(db: Db, userId: string, fileIds: string[]): Promise<Map<string, DeadProp[]>> {
  const out = new Map<string, DeadProp[]>();
  for (let i = 0; i < fileIds.length; i += 500) {
    const rows = await db.selectFrom('dav_props').select(['file_id', 'ns', 'name', 'value']).where('user_id', '=', userId).where('file_id', 'in', fileIds.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.file_id, [...(out.get(r.file_id) ?? []), { ns: r.ns, name: r.name, value: r.value }]);
  }
  return out;
}

/**
 * Copies the dead properties of a copied item and, when `deep`, of every member below it (COPY). The drive's copy
 * keeps names below the copied root, and names are unique within a folder, so each member's copy is found by its
 * parent's copy and its name. Copies count against the account's limits like any property: past them, a 507 that
 * undoes the whole COPY (this runs in its transaction).
 */
export async function copyDeadProps(db: Db, userId: string, fromId: string, toId: string, deep: boolean, maxBytes: number): Promise<void> {
  const copyOf = new Map([[fromId, toId]]);
  if (deep) {
    const [sources, copies] = await Promise.all([subtreeRows(db, userId, [fromId], true), subtreeRows(db, userId, [toId], true)]);
    const byParentAndName = new Map(copies.map((r) => [`${r.parent_id}/${r.name}`, r.id]));
    // subtreeRows walks level by level, so a member's parent is always matched before it.
    for (const r of sources) {
      const parentCopy = copyOf.get(r.parent_id);
      const copy = parentCopy === undefined ? undefined : byParentAndName.get(`${parentCopy}/${r.name}`);
      if (r.id !== fromId && copy !== undefined) copyOf.set(r.id, copy);
    }
  }
  const ids = [...copyOf.keys()];
  const account = await lockedPropUsage(db, userId);
  const added = { count: 0, bytes: 0 };
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('dav_props').selectAll().where('user_id', '=', userId).where('file_id', 'in', ids.slice(i, i + 500)).execute();
    added.count += rows.length;
    added.bytes += rows.reduce((n, r) => n + r.size, 0);
    if (!accountFits(account, added, maxBytes)) throw new DavError(507);
    for (let j = 0; j < rows.length; j += 200) {
      await db.insertInto('dav_props').values(rows.slice(j, j + 200).map((r) => ({ ...r, file_id: copyOf.get(r.file_id)! }))).execute();
    }
  }
}
