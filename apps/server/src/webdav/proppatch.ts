/**
 * PROPPATCH (RFC 4918 §9.2): sets and removes dead properties, all or none. Setting the modified time (mtime.ts's
 * getlastmodified, lastmodified, Win32LastModifiedTime) sets the file's own (409 for a value that is no time); an
 * oc:checksums a client sends along is answered 200 when it agrees with the SHA-1 Haul has (or Haul has none: clients'
 * claims are never kept as Haul's), 409 when it contradicts it. Other live properties are protected (403); the top of
 * the drive keeps none. One failure fails every other instruction with 424. A change that would pass the limits of
 * prop-limits.ts stores nothing: 507 Insufficient Storage for each property it would add or grow, 424 for the rest.
 */
import { declaredSha1, OC_NS, sha1sOf } from './checksums.js';
import { DavError } from './locks.js';
import { isTimeProp, parsePropTime, setModifiedTime } from './mtime.js';
import { hrefOf } from './paths.js';
import { fits, lockedPropUsage, propSize } from './prop-limits.js';
import { isLive } from './props.js';
import { checkWrite, readXml, sendMultistatus, statusLine, type DavRequest } from './request.js';
import { resolve, type Resource } from './tree.js';
import { badXml, DAV, elements, emptyElement, is, textOf, writeElement, type XmlElement } from './xml.js';

interface Instruction {
  op: 'set' | 'remove';
  el: XmlElement;
}

function instructionsOf(body: XmlElement | null): Instruction[] {
  if (!body || !is(body, DAV, 'propertyupdate')) throw badXml('the root element must be DAV:propertyupdate.');
  const out: Instruction[] = [];
  for (const step of elements(body)) {
    const op = is(step, DAV, 'set') ? 'set' : is(step, DAV, 'remove') ? 'remove' : null;
    if (!op) continue;
    for (const prop of elements(step).filter((e) => is(e, DAV, 'prop'))) for (const el of elements(prop)) out.push({ op, el });
  }
  if (!out.length) throw badXml('DAV:propertyupdate sets or removes nothing.');
  return out;
}

/** What an instruction on a live property comes to: a time to set, nothing to do, or a refusal's status. */
type LiveOutcome = { time: number } | { ok: true } | { code: number };

async function liveOutcome(d: DavRequest, self: Resource, s: Instruction): Promise<LiveOutcome | null> {
  const { ns, local } = s.el;
  if (self.kind === 'root') return { code: 403 };
  if (isTimeProp(ns, local)) {
    if (s.op === 'remove') return { code: 403 };
    const time = parsePropTime(textOf(s.el));
    return time === null ? { code: 409 } : { time };
  }
  if (ns === OC_NS && local === 'checksums' && s.op === 'set') {
    let claimed: string | undefined;
    try {
      claimed = declaredSha1(elements(s.el).map(textOf).join(' ') || textOf(s.el));
    } catch {
      return { code: 409 };
    }
    const known = (await sha1sOf(d.ctx.db, [self.row.hash])).get(self.row.hash);
    return claimed && known && claimed !== known ? { code: 409 } : { ok: true };
  }
  return isLive(ns, local) ? { code: 403 } : null;
}

export async function proppatch(d: DavRequest): Promise<void> {
  const self = await resolve(d.ctx.db, d.userId, d.path.names);
  if (!self) throw new DavError(404);
  await checkWrite(d, [{ key: d.path.key }]);
  const steps = instructionsOf(await readXml(d.req));
  const live = new Map<Instruction, LiveOutcome>();
  for (const s of steps) {
    const outcome = await liveOutcome(d, self, s);
    if (outcome) live.set(s, outcome);
  }
  const refusal = (s: Instruction) => {
    const o = live.get(s);
    return o && 'code' in o ? o.code : null;
  };
  const failed = steps.some((s) => refusal(s) !== null);
  const deadSteps = steps.filter((s) => !live.has(s));
  // The last time a request sets wins, as if each instruction ran in order.
  const time = steps.reduce<number | null>((t, s) => {
    const o = live.get(s);
    return o && 'time' in o ? o.time : t;
  }, null);
  const name = (s: Instruction) => (s.el.ns === DAV ? `<D:${s.el.local}/>` : emptyElement(s.el.ns, s.el.local));
  // The instructions that found no room, or null when everything was stored.
  let noRoom: Set<Instruction> | null = null;
  if (!failed && self.kind === 'item') {
    noRoom = await d.ctx.db.transaction().execute(async (trx) => {
      const account = await lockedPropUsage(trx, d.userId);
      const current = await trx.selectFrom('dav_props').select(['ns', 'name', 'size']).where('file_id', '=', self.id).where('user_id', '=', d.userId).execute();
      // The resource's properties as the instructions leave them, in order, and those that add or grow one.
      const after = new Map(current.map((r) => [`${r.ns} ${r.name}`, r.size]));
      const growing = new Set<Instruction>();
      for (const s of deadSteps) {
        const key = `${s.el.ns} ${s.el.local}`;
        if (s.op === 'remove') after.delete(key);
        else {
          const size = propSize(s.el.ns, s.el.local, writeElement(s.el));
          if (size > (after.get(key) ?? 0) || !after.has(key)) growing.add(s);
          after.set(key, size);
        }
      }
      const sum = (sizes: Iterable<number>) => [...sizes].reduce((a, b) => a + b, 0);
      const before = { count: current.length, bytes: sum(current.map((r) => r.size)) };
      if (!fits(before, { count: after.size, bytes: sum(after.values()) }, account, d.ctx.config.webdavPropsMaxBytes)) return growing;
      for (const s of deadSteps) {
        await trx.deleteFrom('dav_props').where('file_id', '=', self.id).where('ns', '=', s.el.ns).where('name', '=', s.el.local).execute();
        if (s.op === 'set') {
          const value = writeElement(s.el);
          await trx.insertInto('dav_props').values({ file_id: self.id, user_id: d.userId, ns: s.el.ns, name: s.el.local, value, size: propSize(s.el.ns, s.el.local, value) }).execute();
        }
      }
      if (time !== null) await setModifiedTime(trx, d.userId, self.id, time, d.now);
      return null;
    });
  }
  const byStatus = new Map<number, string[]>();
  for (const s of steps) {
    const code = failed ? (refusal(s) ?? 424) : noRoom ? (noRoom.has(s) ? 507 : 424) : 200;
    byStatus.set(code, [...(byStatus.get(code) ?? []), name(s)]);
  }
  const propstats = [...byStatus].map(([code, props]) => `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(code)}</D:status></D:propstat>`).join('');
  sendMultistatus(d.reply, [`<D:response><D:href>${hrefOf(d.path.names, self.kind === 'root' || self.row.kind === 'drive#folder')}</D:href>${propstats}</D:response>`]);
}
