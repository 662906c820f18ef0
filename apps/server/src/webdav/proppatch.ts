/**
 * PROPPATCH (RFC 4918 §9.2): sets and removes dead properties, all or none. Live properties are protected (403,
 * and every other instruction of the request fails with 424); the top of the drive keeps none. A change that would
 * pass the limits of prop-limits.ts stores nothing: 507 Insufficient Storage for each property it would add or grow,
 * 424 for the rest.
 */
import { DavError } from './locks.js';
import { hrefOf } from './paths.js';
import { fits, lockedPropUsage, propSize } from './prop-limits.js';
import { isLive } from './props.js';
import { checkWrite, readXml, sendMultistatus, statusLine, type DavRequest } from './request.js';
import { resolve } from './tree.js';
import { badXml, DAV, elements, emptyElement, is, writeElement, type XmlElement } from './xml.js';

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

export async function proppatch(d: DavRequest): Promise<void> {
  const self = await resolve(d.ctx.db, d.userId, d.path.names);
  if (!self) throw new DavError(404);
  await checkWrite(d, [{ key: d.path.key }]);
  const steps = instructionsOf(await readXml(d.req));
  const refused = (s: Instruction) => self.kind === 'root' || isLive(s.el.ns, s.el.local);
  const failed = steps.some(refused);
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
      for (const s of steps) {
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
      for (const s of steps) {
        await trx.deleteFrom('dav_props').where('file_id', '=', self.id).where('ns', '=', s.el.ns).where('name', '=', s.el.local).execute();
        if (s.op === 'set') {
          const value = writeElement(s.el);
          await trx.insertInto('dav_props').values({ file_id: self.id, user_id: d.userId, ns: s.el.ns, name: s.el.local, value, size: propSize(s.el.ns, s.el.local, value) }).execute();
        }
      }
      return null;
    });
  }
  const byStatus = new Map<number, string[]>();
  for (const s of steps) {
    const code = failed ? (refused(s) ? 403 : 424) : noRoom ? (noRoom.has(s) ? 507 : 424) : 200;
    byStatus.set(code, [...(byStatus.get(code) ?? []), name(s)]);
  }
  const propstats = [...byStatus].map(([code, props]) => `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(code)}</D:status></D:propstat>`).join('');
  sendMultistatus(d.reply, [`<D:response><D:href>${hrefOf(d.path.names, self.kind === 'root' || self.row.kind === 'drive#folder')}</D:href>${propstats}</D:response>`]);
}
