/** The tus endpoint (/drive/v1/uploads/{id}): only uploads created through POST files, only by their owner. */
import type { FastifyInstance } from 'fastify';
import { Server } from '@tus/server';
import { errorBody, type ErrorName } from '@haul/shared';
import type { AppContext } from '../context.js';
import { verifyAccessToken } from '../accounts/tokens.js';
import { HttpError } from '../http/errors.js';
import type { HashingFileStore } from './hashing-file-store.js';
import { finalizeUpload, findUpload } from './uploads.service.js';

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

export async function tusRoutes(app: FastifyInstance, ctx: AppContext, store: HashingFileStore): Promise<void> {
  const owner = new WeakMap<object, string>();
  // tus releases its lock before onUploadFinish, so a second PATCH at the final offset (a client that missed the first
  // answer) can arrive while the first is still finishing: it shares that finalisation instead of placing a copy.
  const finishing = new Map<string, Promise<{ fileId: string; taskId: string }>>();
  const finish = (userId: string, id: string) => {
    const done = (async () => {
      const row = await findUpload(ctx.db, userId, id);
      if (!row) throw new HttpError(404, 'file_not_found', 'The upload does not exist.');
      return { fileId: await finalizeUpload(ctx, store, row), taskId: row.task_id };
    })().finally(() => finishing.delete(id));
    finishing.set(id, done);
    return done;
  };
  const tus = new TusServer({
    path: PATH,
    datastore: store,
    relativeLocation: true,
    respectForwardedHeaders: true,
    async onIncomingRequest(req, uploadId) {
      const auth = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '');
      if (!auth) throw tusError(401, 'unauthenticated', 'Please sign in.');
      let userId: string;
      try {
        userId = (await verifyAccessToken(ctx, auth[1]!.trim())).userId;
      } catch {
        throw tusError(401, 'unauthenticated', 'The access token is invalid or has expired.');
      }
      if (!uploadId || !(await findUpload(ctx.db, userId, uploadId))) throw tusError(404, 'file_not_found', 'The upload does not exist.');
      owner.set(req, userId);
    },
    async onResponseError(_req, err) {
      // Faults of our own (not a tus answer): the client gets the error object, the log the details.
      if (err instanceof Error && !('status_code' in err)) app.log.error(err, 'upload request failed');
      return undefined;
    },
    async onUploadCreate() {
      throw tusError(405, 'method_not_allowed', 'Create uploads with POST /drive/v1/files (upload_type UPLOAD_TYPE_RESUMABLE).');
    },
    async onUploadFinish(req, upload) {
      try {
        const { fileId, taskId } = await (finishing.get(upload.id) ?? finish(owner.get(req) ?? '', upload.id));
        return { headers: { 'Haul-File-Id': fileId, 'Haul-Task-Id': taskId } };
      } catch (err) {
        if (err instanceof HttpError) throw tusError(err.status, err.error, err.message);
        throw err;
      }
    },
  });

  // tus reads the request body itself.
  app.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
  const handle = (req: { raw: import('node:http').IncomingMessage }, reply: { hijack(): void; raw: import('node:http').ServerResponse }) => {
    reply.hijack();
    return tus.handle(req.raw, reply.raw);
  };
  app.all(PATH, handle);
  app.all(`${PATH}/*`, handle);
}
