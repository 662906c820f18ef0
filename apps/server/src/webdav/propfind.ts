/**
 * PROPFIND (RFC 4918 §9.1): depth 0 or 1, the answer streamed a page of children at a time; depth infinity (and a
 * missing Depth header, which means it) is refused with propfind-finite-depth.
 */
import { Readable } from 'node:stream';
import { freeSpace, storageUsage } from '../quotas/storage-room.js';
import { DavError } from './locks.js';
import { hrefOf, keyOf } from './paths.js';
import { OC_NS, sha1sOf } from './checksums.js';
import { deadProps, isLive, liveNamesOf, liveProp, liveValue, otherLiveNamesOf, type DeadProp, type PropContext } from './props.js';
import { locksOf, readXml, statusLine, type DavRequest } from './request.js';
import { childrenPage, isFolder, resolve, type Resource } from './tree.js';
import { badXml, DAV, elements, emptyElement, is, XML_HEAD, type XmlElement } from './xml.js';

type Wanted = { mode: 'allprop'; include: XmlElement[] } | { mode: 'propname' } | { mode: 'prop'; props: XmlElement[] };

/** What the body asks for; an empty body is allprop. */
function wantedOf(body: XmlElement | null): Wanted {
  if (!body) return { mode: 'allprop', include: [] };
  if (!is(body, DAV, 'propfind')) throw badXml('the root element must be DAV:propfind.');
  const kids = elements(body);
  const prop = kids.find((k) => is(k, DAV, 'prop'));
  if (prop) return { mode: 'prop', props: elements(prop) };
  if (kids.some((k) => is(k, DAV, 'propname'))) return { mode: 'propname' };
  if (kids.some((k) => is(k, DAV, 'allprop'))) return { mode: 'allprop', include: elements(kids.find((k) => is(k, DAV, 'include')) ?? { ns: '', local: '', attrs: [], children: [] }) };
  throw badXml('DAV:propfind holds none of prop, allprop or propname.');
}

function propstat(props: string[], code: number): string {
  return props.length ? `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(code)}</D:status></D:propstat>` : '';
}

/** One response element of the answer. */
function responseFor(r: Resource, names: string[], key: string, wanted: Wanted, stored: DeadProp[], pc: PropContext, now: number): string {
  const found: string[] = [];
  const missing: string[] = [];
  // A property stored before it became live (Win32LastModifiedTime) is answered live.
  const dead = stored.filter((p) => !isLive(p.ns, p.name));
  if (wanted.mode === 'propname') {
    found.push(...liveNamesOf(r, false).map((p) => `<D:${p}/>`), ...otherLiveNamesOf(r, pc), ...dead.map((p) => emptyElement(p.ns, p.name)));
  } else if (wanted.mode === 'allprop') {
    for (const p of liveNamesOf(r, true)) found.push(liveProp(p, r, names, key, pc, now)!);
    found.push(...dead.map((p) => p.value));
    for (const inc of wanted.include) {
      if (inc.ns === DAV && !found.some((f) => f.startsWith(`<D:${inc.local}>`) || f.startsWith(`<D:${inc.local}/`))) {
        const v = liveProp(inc.local, r, names, key, pc, now);
        if (v) found.push(v);
      }
    }
  } else {
    for (const p of wanted.props) {
      const v = isLive(p.ns, p.local) ? liveValue(p.ns, p.local, r, names, key, pc, now) : dead.find((d) => d.ns === p.ns && d.name === p.local)?.value ?? null;
      if (v) found.push(v);
      else missing.push(p.ns === DAV ? `<D:${p.local}/>` : emptyElement(p.ns, p.local));
    }
  }
  const folder = isFolder(r);
  return `<D:response><D:href>${hrefOf(names, folder)}</D:href>${propstat(found, 200)}${propstat(missing, 404)}</D:response>`;
}

/** Children are read and answered this many at a time, so a folder of any size streams in flat memory. */
const PAGE = 500;

export async function propfind(d: DavRequest): Promise<void> {
  const depth = String(d.req.headers.depth ?? 'infinity').trim().toLowerCase();
  if (depth !== '0' && depth !== '1') throw new DavError(403, 'propfind-finite-depth');
  const wanted = wantedOf(await readXml(d.req));
  const self = await resolve(d.ctx.db, d.userId, d.path.names);
  if (!self) throw new DavError(404);
  const [usage, available, locks] = await Promise.all([storageUsage(d.ctx.db, d.userId), freeSpace(d.ctx.db, d.userId, d.now), locksOf(d)]);
  const pc: PropContext = { used: usage.total, available, locks, sha1: new Map() };
  const liveOnly = wanted.mode === 'prop' && wanted.props.every((p) => isLive(p.ns, p.local));
  const wantsSha1 = wanted.mode === 'propname' || (wanted.mode === 'prop' && wanted.props.some((p) => p.ns === OC_NS && p.local === 'checksums'));
  const answer = async (members: { r: Resource; names: string[] }[]) => {
    const items = members.flatMap((m) => (m.r.kind === 'item' ? [m.r] : []));
    const ids = items.map((r) => r.id);
    const dead = liveOnly || !ids.length ? new Map<string, DeadProp[]>() : await deadProps(d.ctx.db, d.userId, ids);
    if (wantsSha1) pc.sha1 = await sha1sOf(d.ctx.db, items.map((r) => r.row.hash));
    return members.map((m) => responseFor(m.r, m.names, keyOf(m.names), wanted, dead.get(m.r.id) ?? [], pc, d.now)).join('');
  };
  const first = await answer([{ r: self, names: d.path.names }]);
  const names = d.path.names;
  async function* body() {
    yield `${XML_HEAD}<D:multistatus xmlns:D="DAV:">${first}`;
    if (depth === '1' && isFolder(self!)) {
      // Keyset pages by name: live names are unique in a folder.
      for (let after: string | null = null; ; ) {
        const rows = await childrenPage(d.ctx.db, d.userId, self!.id, after, PAGE);
        if (rows.length) yield await answer(rows.map((row) => ({ r: { kind: 'item' as const, id: row.id, row }, names: [...names, row.name] })));
        if (rows.length < PAGE) break;
        after = rows.at(-1)!.name;
      }
    }
    yield '</D:multistatus>';
  }
  d.reply.status(207).header('Content-Type', 'application/xml; charset=utf-8');
  d.reply.send(Readable.from(body()));
}
