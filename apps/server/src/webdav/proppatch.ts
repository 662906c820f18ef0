/**
 * PROPPATCH (RFC 4918 §9.2): sets and removes dead properties, all or none. Live properties are protected (403,
 * and every other instruction of the request fails with 424); the top of the drive keeps none.
 */
import { DavError } from './locks.js';
import { hrefOf } from './paths.js';
import { isLive } from './props.js';
import { checkWrite, readXml, sendMultistatus, statusLine, type DavRequest } from './request.js';
import { resolve } from './tree.js';
import { badXml, DAV, elements, emptyElement, is, writeElement, type XmlElement } from './xml.js';

interface Instruction {
  op: 'set' | 'remove';
  el: XmlElement;
}

/** A property's stored XML stays small: this is metadata, not a second file. */
const MAX_VALUE = 64 * 1024;

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
  const refused = (s: Instruction) => self.kind === 'root' || isLive(s.el.ns, s.el.local) || (s.op === 'set' && writeElement(s.el).length > MAX_VALUE);
  const failed = steps.some(refused);
  const name = (s: Instruction) => (s.el.ns === DAV ? `<D:${s.el.local}/>` : emptyElement(s.el.ns, s.el.local));
  if (!failed && self.kind === 'item') {
    await d.ctx.db.transaction().execute(async (trx) => {
      for (const s of steps) {
        await trx.deleteFrom('dav_props').where('file_id', '=', self.id).where('ns', '=', s.el.ns).where('name', '=', s.el.local).execute();
        if (s.op === 'set') await trx.insertInto('dav_props').values({ file_id: self.id, user_id: d.userId, ns: s.el.ns, name: s.el.local, value: writeElement(s.el) }).execute();
      }
    });
  }
  const byStatus = new Map<number, string[]>();
  for (const s of steps) {
    const code = !failed ? 200 : refused(s) ? 403 : 424;
    byStatus.set(code, [...(byStatus.get(code) ?? []), name(s)]);
  }
  const propstats = [...byStatus].map(([code, props]) => `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>${statusLine(code)}</D:status></D:propstat>`).join('');
  sendMultistatus(d.reply, [`<D:response><D:href>${hrefOf(d.path.names, self.kind === 'root' || self.row.kind === 'drive#folder')}</D:href>${propstats}</D:response>`]);
}
