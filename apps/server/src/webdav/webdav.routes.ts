/**
 * The drive over WebDAV at /dav/ (RFC 4918 class 1 and 2, quotas of RFC 4331). Not JSON API calls, so outside the
 * contract: the routes live in a scope of their own whose body parsers leave every body unread (PUT streams it into
 * the blob store, the XML methods read it with a limit), so the rest of the API keeps its JSON parsing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, FOLDER_KIND } from '@haul/shared';
import type { AppContext } from '../context.js';
import { sendFileBytes } from '../downloads/send-file.js';
import { createFolder } from '../files/files.service.js';
import { trashFiles } from '../files/trash.service.js';
import { HttpError } from '../http/errors.js';
import { davCaller, REALM } from './auth.js';
import { recalculateHash } from './recalculate-hash.js';
import { copyOrMove } from './copy-move.js';
import { lock, unlock } from './lock-handlers.js';
import { DavError, dropLocksWithin } from './locks.js';
import { parseDavPath } from './paths.js';
import { propfind } from './propfind.js';
import { proppatch } from './proppatch.js';
import { etagOfHash } from './props.js';
import { put } from './put.js';
import { checkWrite, hasBody, type DavRequest } from './request.js';
import { resolve, resolveParent } from './tree.js';
import { XML_HEAD } from './xml.js';

const EXTENSION_METHODS = ['PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'];
// PATCH only for Nextcloud's X-Recalculate-Hash (checksums.ts): Haul keeps no partial writes.
const METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', ...EXTENSION_METHODS];
const ALLOW = METHODS.join(', ');

async function options(d: DavRequest): Promise<void> {
  d.reply.status(200).headers({ DAV: '1, 2', Allow: ALLOW, 'MS-Author-Via': 'DAV', 'Content-Length': '0' }).send();
}

async function getOrHead(d: DavRequest): Promise<void> {
  const r = await resolve(d.ctx.db, d.userId, d.path.names);
  if (!r) throw new DavError(404);
  if (r.kind === 'root' || r.row.kind === FOLDER_KIND || !r.row.hash) {
    // A folder has no bytes of its own: clients list it with PROPFIND.
    d.reply.status(405).header('Allow', 'OPTIONS, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, DELETE, LOCK, UNLOCK').send();
    return;
  }
  // The downloads' own path: Range, ETag and If-None-Match, and the bytes count against the account's allowance.
  await sendFileBytes(d.ctx, d.req, d.reply, r.row, d.userId, etagOfHash(r.row.hash));
}

async function mkcol(d: DavRequest): Promise<void> {
  if (hasBody(d.req)) throw new DavError(415);
  if (!d.path.names.length || (await resolve(d.ctx.db, d.userId, d.path.names))) throw new DavError(405);
  const parent = await resolveParent(d.ctx.db, d.userId, d.path.names);
  if (!parent) throw new DavError(409);
  await checkWrite(d, [{ key: d.path.key, membership: true }]);
  await createFolder(d.ctx, d.userId, parent.id, d.path.names.at(-1)!);
  d.reply.status(201).send();
}

async function remove(d: DavRequest): Promise<void> {
  const r = await resolve(d.ctx.db, d.userId, d.path.names);
  if (!r) throw new DavError(404);
  if (r.kind === 'root') throw new DavError(403);
  await checkWrite(d, [{ key: d.path.key, deep: true, membership: true }]);
  // To the trash, as the web app deletes: restorable until the trash is emptied or its time runs out.
  await trashFiles(d.ctx, d.userId, [r.id]);
  await dropLocksWithin(d.ctx.db, d.userId, d.path.key);
  d.reply.status(204).send();
}

const HANDLERS: Record<string, (d: DavRequest) => Promise<void>> = {
  OPTIONS: options,
  GET: getOrHead,
  HEAD: getOrHead,
  PUT: put,
  PATCH: async (d) => {
    if (d.req.headers['x-recalculate-hash'] === undefined) throw new DavError(405);
    await recalculateHash(d);
  },
  DELETE: remove,
  MKCOL: mkcol,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  COPY: (d) => copyOrMove(d, false),
  MOVE: (d) => copyOrMove(d, true),
  LOCK: lock,
  UNLOCK: unlock,
};

/** Statuses WebDAV clients act on, for the drive's own errors. */
function davStatus(err: HttpError): number {
  if (err.error === 'file_space_not_enough') return 507;
  if (err.error === 'file_in_recycle_bin' || err.error === 'file_duplicated_name') return 409;
  if (err.error === 'file_not_found') return 404;
  return err.status;
}

function answerError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof DavError) {
    reply.status(err.status);
    if (!err.condition) return reply.send();
    return reply.header('Content-Type', 'application/xml; charset=utf-8').send(`${XML_HEAD}<D:error xmlns:D="DAV:"><D:${err.condition}/></D:error>`);
  }
  if (err instanceof HttpError) {
    if (err.status === 401) reply.header('WWW-Authenticate', `Basic realm="${REALM}", charset="UTF-8"`);
    return reply.status(davStatus(err)).send(errorBody(err.error, err.message, err.details));
  }
  throw err;
}

export async function webdavRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  for (const m of EXTENSION_METHODS) if (!app.supportedMethods.includes(m)) app.addHttpMethod(m, { hasBody: true });
  await app.register(async (scope) => {
    // Bodies stay unread here: each handler reads its own (or streams it, for PUT).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        const userId = await davCaller(ctx, req);
        const path = parseDavPath(req.raw.url ?? '');
        await HANDLERS[req.method]!({ ctx, req, reply, userId, path, now: ctx.clock.now() });
      } catch (err) {
        if (reply.sent) throw err;
        return answerError(reply, err);
      }
      return reply;
    };
    for (const url of ['/dav', '/dav/*']) scope.route({ method: METHODS, url, exposeHeadRoute: false, handler });
  });
}
