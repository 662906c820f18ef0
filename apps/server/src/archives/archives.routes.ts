/** POST /decompress/v1/list, POST /decompress/v1/decompress, GET /decompress/v1/progress. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { archiveFolderName, CONTRACT as C, PHASE, type RouteDef } from '@haul/shared';
import { verifyAccessToken } from '../http/access-tokens.js';
import type { AppContext } from '../context.js';
import { checkAppScope } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { notFound, unauthenticated } from '../http/errors.js';
import { presentTask } from '../tasks/tasks.presenter.js';
import { requireTask } from '../tasks/tasks.repository.js';
import { parseParams } from '../lib/params.js';
import { jobDone } from './archive-placement.js';
import { createDecompressTask, DECOMPRESS, openArchive } from './archives.service.js';
import type { ArchiveWorker } from './archives.worker.js';

/** The seeds' calls take the token as a bearer header or as `access_token` in the query. */
function requireCaller(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook('onRequest', async (req: FastifyRequest) => {
    const header = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = header ?? (req.query as { access_token?: unknown } | undefined)?.access_token;
    if (typeof token !== 'string' || !token.trim()) throw unauthenticated();
    req.caller = await verifyAccessToken(ctx, token.trim());
    req.userId = req.caller.userId;
    checkAppScope(req.caller, (req.routeOptions.config as { contract?: RouteDef }).contract?.appScope ?? 'pan');
  });
}

export async function archivesRoutes(app: FastifyInstance, ctx: AppContext, worker: ArchiveWorker): Promise<void> {
  await app.register(async (scope) => {
    requireCaller(scope, ctx);

    serve(scope, C.listArchive, async (req) => {
      const { file, listing, entries, encryptedHeaders } = await openArchive(ctx, req.userId, { fileId: req.body.file_id, password: req.body.password, encoding: req.body.encoding });
      return {
        status: 'OK' as const,
        file_id: file.id,
        file_name: file.name,
        archive_type: listing.type,
        encrypted_headers: encryptedHeaders,
        has_encrypted: entries.some((e) => e.encrypted),
        total_size: String(entries.reduce((n, e) => n + (e.skipped ? 0 : e.size), 0)),
        folder_name: archiveFolderName(file.name),
        files: entries.map((e) => ({
          path: e.path,
          name: e.target.at(-1) ?? e.path.split(/[\\/]/).filter(Boolean).at(-1) ?? e.path,
          kind: e.folder ? ('drive#folder' as const) : ('drive#file' as const),
          size: String(e.size),
          modified_time: e.modified === null ? '' : new Date(e.modified).toISOString(),
          encrypted: e.encrypted,
          skipped: e.skipped,
        })),
      };
    });

    serve(scope, C.decompress, async (req) => {
      const b = req.body;
      const task = await createDecompressTask(ctx, req.userId, {
        fileId: b.file_id,
        password: b.password,
        encoding: b.encoding,
        paths: b.paths,
        parentId: b.parent_id,
      }, req.id);
      worker.kick();
      return { task: presentTask(task) };
    });

    serve(scope, C.decompressProgress, async (req) => {
      const task = await requireTask(ctx.db, req.userId, req.query.task_id);
      if (task.type !== DECOMPRESS) throw notFound('No such unpacking task.');
      const params = parseParams(task.params);
      const job = await ctx.db.selectFrom('archive_jobs').select('done').where('task_id', '=', task.id).executeTakeFirst();
      const done = job ? Object.values(jobDone(job)) : [];
      const complete = task.phase === PHASE.COMPLETE;
      return {
        task: presentTask(task),
        total_entries: Number(params.entries ?? 0),
        done_entries: complete ? Number(params.entries ?? 0) : done.length,
        total_size: params.size ?? '0',
        done_size: String(complete ? task.size : done.reduce((n, [, s]) => n + s, 0)),
      };
    });
  });
}
