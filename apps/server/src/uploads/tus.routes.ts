/** The tus endpoint (/drive/v1/uploads/{id}): only uploads created through POST files, only by their owner. */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@tus/server';
import { CONTRACT as C, errorBody, type ErrorName } from '@haul/shared';
import type { AppContext } from '../context.js';
import { verifyAccessToken } from '../http/access-tokens.js';
import { checkAppScope } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { databaseUnavailable, diskFull, HttpError, isDatabaseUnavailable, isDiskFull } from '../http/errors.js';
import type { UploadStore } from './upload-store.js';
import { UploadLocker } from './upload-locker.js';
import { readNodeBodies } from './tus-node-body.js';
import type { UploadRow } from '../db/schema.js';
import { allBytesArrived, findUpload, finishUpload, placedUpload, touchUpload } from './uploads.service.js';

const PATH = '/drive/v1/uploads';

function tusError(status: number, error: ErrorName, message: string) {
  return { status_code: status, body: JSON.stringify(errorBody(error, message)) };
}

const TUS_ERROR_NAMES: Record<number, ErrorName> = {
  400: 'invalid_argument',
  401: 'unauthenticated',
  403: 'permission_denied',
  404: 'file_not_found',
  405: 'method_not_allowed',
  409: 'failed_precondition',
  410: 'file_not_found',
  412: 'failed_precondition',
  413: 'payload_too_large',
};

/**
 * tus answers its own errors (a missing Tus-Resumable header, an offset that does not match, …) as plain text, some
 * without passing through onResponseError; every one leaves here as the error object, like every other route. Server
 * faults keep their details for the log, not the client.
 */
class TusServer extends Server {
  constructor(options: ConstructorParameters<typeof Server>[0]) {
    super(options);
    // PATCH bodies are read from Node's request stream (tus-node-body.ts).
    readNodeBodies(this.handlers.PATCH, options.datastore);
  }

  override write(context: Parameters<Server['write']>[0], headers: Headers, status: number, body = '') {
    if (status >= 400 && !body.startsWith('{')) {
      const error = TUS_ERROR_NAMES[status] ?? (status >= 500 ? 'internal' : 'invalid_argument');
      const text = status >= 500 ? 'Something went wrong on the server.' : body.trim().replace(/\.?$/, '.');
      body = JSON.stringify(errorBody(error, text));
    }
    if (status >= 400) headers.set('Content-Type', 'application/json; charset=utf-8');
    return super.write(context, headers, status, body);
  }
}

/** A full disk or a database that is away, as the answer the client retries on; null for any other fault. */
const passingFault = (err: unknown): HttpError | null => (isDiskFull(err) ? diskFull() : isDatabaseUnavailable(err) ? databaseUnavailable() : null);

export async function tusRoutes(app: FastifyInstance, ctx: AppContext, store: UploadStore): Promise<void> {
  const rows = new WeakMap<object, UploadRow>();
  /** The caller named by the request's bearer token, or a tus error answer. */
  const callerOf = async (authorization: string | null): Promise<string> => {
    const auth = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!auth) throw tusError(401, 'unauthenticated', 'Please sign in.');
    let userId: string;
    try {
      const caller = await verifyAccessToken(ctx, auth[1]!.trim());
      checkAppScope(caller, 'pan');
      userId = caller.userId;
    } catch (err) {
      // Only a refused token is a 401: a database that is away must not sign the client out.
      if (err instanceof HttpError) throw tusError(err.status, err.error, err.message);
      throw err;
    }
    return userId;
  };
  /** The caller's upload named by the request, or a tus error answer. */
  const uploadOf = async (authorization: string | null, uploadId: string | undefined): Promise<UploadRow> => {
    const userId = await callerOf(authorization);
    const row = uploadId ? await findUpload(ctx.db, userId, uploadId) : undefined;
    if (!row) throw tusError(404, 'file_not_found', 'The upload does not exist.');
    return row;
  };
  const tus = new TusServer({
    path: PATH,
    datastore: store,
    // In the database, so two API processes never write to one upload at once.
    locker: new UploadLocker(ctx.db),
    relativeLocation: true,
    respectForwardedHeaders: true,
    async onIncomingRequest(req, uploadId) {
      const row = await uploadOf(req.headers.get('authorization'), uploadId);
      rows.set(req, row);
      if (req.method === 'PATCH') await touchUpload(ctx, row);
    },
    async onResponseError(_req, err) {
      // The bytes written before the disk filled stay: the upload continues from them once space is freed.
      const known = passingFault(err);
      if (known) {
        app.log.warn({ err: (err as Error).message }, 'upload request failed');
        return tusError(known.status, known.error, known.message);
      }
      // Faults of our own (not a tus answer): the client gets the error object, the log the details.
      if (err instanceof Error && !('status_code' in err)) app.log.error(err, 'upload request failed');
      return undefined;
    },
    async onUploadCreate() {
      throw tusError(405, 'method_not_allowed', 'Create uploads with POST /drive/v1/files (upload_type UPLOAD_TYPE_RESUMABLE).');
    },
    async onUploadFinish(req, _upload) {
      const row = rows.get(req);
      try {
        if (!row) throw new HttpError(404, 'file_not_found', 'The upload does not exist.');
        // tus releases its lock before this, so a repeated final PATCH (a client that missed the first answer) shares
        // the finalisation already running instead of placing a copy.
        const fileId = await finishUpload(ctx, store, row);
        return { headers: { 'Haul-File-Id': fileId, 'Haul-Task-Id': row.task_id } };
      } catch (err) {
        if (err instanceof HttpError) throw tusError(err.status, err.error, err.message);
        throw err;
      }
    },
  });

  /**
   * A HEAD that finds every byte there (the server died between the last byte and placing the file) finishes the
   * upload first and answers the full offset: a client that then sends nothing, as tus clients do, still gets its file.
   * One the server already finished on its own answers the same, from its task.
   */
  const finishedHead = async (raw: IncomingMessage): Promise<{ size: number; fileId: string; taskId: string } | null> => {
    const id = (raw.url ?? '').split('?')[0]!.split('/').pop() ?? '';
    const userId = await callerOf(String(raw.headers.authorization ?? '')).catch(() => null);
    if (!userId || !id || !raw.headers['tus-resumable']) return null;
    const row = await findUpload(ctx.db, userId, id);
    // Placed already (finished by the server on its own after a stop): complete, not unknown.
    if (!row) return placedUpload(ctx.db, userId, id);
    if (!(await allBytesArrived(store, row))) return null;
    return { size: row.size, fileId: await finishUpload(ctx, store, row), taskId: row.task_id };
  };

  /** What a HEAD answers when finishing its upload failed: the refusal itself, or a server fault told apart. */
  const headFailure = (req: FastifyRequest, err: unknown): HttpError => {
    if (err instanceof HttpError) return err;
    const known = passingFault(err);
    if (known) return known;
    req.log.error(err, 'finishing an upload failed');
    return new HttpError(500, 'internal', 'Something went wrong on the server.');
  };

  // tus reads the request body itself.
  app.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method === 'HEAD') {
      // A failure to finish is answered, never passed on to tus: tus would answer the full offset from the bytes on
      // disk, and the client would take the upload for done with no file placed. Answered, the client asks again.
      const done = await finishedHead(req.raw).catch((err: unknown) => headFailure(req, err));
      if (done instanceof HttpError) {
        return reply
          .status(done.status)
          .headers({ 'Tus-Resumable': '1.0.0', 'Cache-Control': 'no-store', ...(done.status === 503 ? { 'Retry-After': '5' } : {}) })
          .send();
      }
      if (done) {
        return reply
          .status(200)
          .headers({ 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(done.size), 'Upload-Length': String(done.size), 'Cache-Control': 'no-store', 'Haul-File-Id': done.fileId, 'Haul-Task-Id': done.taskId })
          .send();
      }
    }
    // Hijacked answers skip Fastify's own log line, so each upload request logs its status and time here.
    const started = process.hrtime.bigint();
    reply.raw.once('finish', () => {
      req.log.info({ req: { method: req.method, url: req.url }, res: { statusCode: reply.raw.statusCode }, responseTime: Number(process.hrtime.bigint() - started) / 1e6 }, 'request completed');
    });
    reply.hijack();
    return tus.handle(req.raw, reply.raw);
  };
  // One route a method tus handles; HEAD is the twin Fastify makes of the GET route, with the same handler (tus
  // dispatches on the request's own method).
  for (const def of [C.tusOptions, C.tusCreate, C.tusOptionsUpload, C.tusGet, C.tusPatch, C.tusDelete]) serve(app, def, handle);
}
