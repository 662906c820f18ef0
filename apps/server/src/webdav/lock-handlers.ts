/**
 * LOCK and UNLOCK (RFC 4918 §9.10–9.11): new locks (exclusive or shared write locks, depth 0 or infinity), refreshes
 * through the If header, and a lock on an unmapped path, which makes an empty file there (§7.3).
 */
import { Readable } from 'node:stream';
import { requireRoom } from '../quotas/storage-room.js';
import { placeFileIn } from '../files/files.service.js';
import { HttpError } from '../http/errors.js';
import { covers, DavError, insertLock, parseIf, refuseConflicts, requireTokens, submittedTokens, timeoutOf, type Lock } from './locks.js';
import { activeLockXml } from './props.js';
import { locksOf, readXml, requireIf, type DavRequest } from './request.js';
import { resolve, resolveParent } from './tree.js';
import { badXml, child, DAV, elements, escapeXml, is, writeElement, XML_HEAD } from './xml.js';

function sendLock(d: DavRequest, lock: Lock, status: number) {
  d.reply
    .status(status)
    .header('Lock-Token', `<${lock.token}>`)
    .header('Content-Type', 'application/xml; charset=utf-8')
    .send(`${XML_HEAD}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock, d.now)}</D:lockdiscovery></D:prop>`);
}

/** The owner element as it will be answered back: DAV:owner with the client's content, namespaces declared. */
function ownerXml(el: ReturnType<typeof child>): string {
  if (!el) return '';
  const inner = el.children.map((c) => (typeof c === 'string' ? escapeXml(c) : writeElement(c))).join('');
  return `<D:owner>${inner}</D:owner>`;
}

export async function lock(d: DavRequest): Promise<void> {
  const body = await readXml(d.req);
  const locks = await locksOf(d);
  const timeoutS = timeoutOf(d.req.headers.timeout as string | undefined);
  if (!body) {
    // A refresh: the If header names the lock.
    const tokens = submittedTokens(parseIf(d.req.headers.if as string | undefined));
    const held = locks.find((l) => tokens.has(l.token) && covers(l, d.path.key));
    if (!held) throw new DavError(412, 'lock-token-matches-request-uri');
    await requireIf(d, locks);
    const expires = d.now + timeoutS * 1000;
    // Only while still live: a lock that expired (and may be swept) since it was read is not brought back.
    const refreshed = await d.ctx.db
      .updateTable('dav_locks')
      .set({ timeout_s: timeoutS, expires_at: expires })
      .where('token', '=', held.token)
      .where('user_id', '=', d.userId)
      .where('expires_at', '>', d.now)
      .executeTakeFirst();
    if (!Number(refreshed.numUpdatedRows)) throw new DavError(412, 'lock-token-matches-request-uri');
    return sendLock(d, { ...held, timeout_s: timeoutS, expires_at: expires }, 200);
  }
  if (!is(body, DAV, 'lockinfo')) throw badXml('the root element must be DAV:lockinfo.');
  const scopeEl = child(body, DAV, 'lockscope');
  const scope = scopeEl && elements(scopeEl).find((e) => e.ns === DAV && (e.local === 'exclusive' || e.local === 'shared'))?.local;
  const typeEl = child(body, DAV, 'locktype');
  if (!scope || !typeEl || !child(typeEl, DAV, 'write')) throw badXml('DAV:lockinfo needs a lockscope (exclusive or shared) and the write locktype.');
  const depth = String(d.req.headers.depth ?? 'infinity').trim().toLowerCase();
  if (depth !== '0' && depth !== 'infinity') throw new HttpError(400, 'invalid_argument', 'A lock has depth 0 or infinity.');

  const target = await resolve(d.ctx.db, d.userId, d.path.names);
  await requireIf(d, locks);
  refuseConflicts(locks, d.path.key, depth, scope);
  requireTokens(locks, submittedTokens(parseIf(d.req.headers.if as string | undefined)), target ? [] : [{ key: d.path.key, membership: true }]);
  let created = false;
  if (!target) {
    const parent = await resolveParent(d.ctx.db, d.userId, d.path.names);
    if (!parent || !d.path.names.length) throw new DavError(409);
    const blob = await d.ctx.blobs.put(Readable.from([]));
    await d.ctx.db.transaction().execute(async (trx) => {
      // A file like any other, placed as PUT places one; its properties count against the account's limits.
      await requireRoom(trx, d.userId, 0, d.now);
      await placeFileIn(trx, d.userId, { parentId: parent.id, name: d.path.names.at(-1)!, hash: blob.hash, size: 0 }, d.now);
    });
    created = true;
  }
  const made = await insertLock(d.ctx.db, d.userId, { key: d.path.key, depth, scope, owner: ownerXml(child(body, DAV, 'owner')), timeoutS }, d.now);
  sendLock(d, made, created ? 201 : 200);
}

export async function unlock(d: DavRequest): Promise<void> {
  const token = /^\s*<([^>]+)>\s*$/.exec(String(d.req.headers['lock-token'] ?? ''))?.[1];
  if (!token) throw new HttpError(400, 'invalid_argument', 'The Lock-Token header is missing or not valid.');
  const held = (await locksOf(d)).find((l) => l.token === token && covers(l, d.path.key));
  if (!held) throw new DavError(409, 'lock-token-matches-request-uri');
  await d.ctx.db.deleteFrom('dav_locks').where('token', '=', held.token).where('user_id', '=', d.userId).execute();
  d.reply.status(204).send();
}
