/** /drive/v1/tasks: read a task's progress, cancel tasks. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '@haul/shared';
import type { AppContext } from '../context.js';
import { presentFile } from '../files/files.presenter.js';
import { findFile } from '../files/files.repository.js';
import { deleteFiles } from '../files/trash.service.js';
import { notFound } from '../http/errors.js';
import { dropUpload } from '../uploads/uploads.service.js';
import { requireTask } from './tasks.repository.js';
import { presentTask } from './tasks.presenter.js';

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const DeleteQuery = Type.Object({
  task_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: LIMITS.batchMaxIds }),
  delete_files: Type.Optional(Type.Boolean()),
});

export async function tasksRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const retentionMs = ctx.config.trashRetentionDays * 86_400_000;

  app.get<{ Params: Static<typeof IdParams> }>('/drive/v1/tasks/:id', { schema: { params: IdParams } }, async (req) => {
    const task = await requireTask(ctx.db, req.userId, req.params.id);
    const file = task.file_id ? await findFile(ctx.db, req.userId, task.file_id) : undefined;
    return presentTask(task, file ? presentFile(file, { retentionMs }) : null);
  });

  /** Cancels tasks: an upload in flight stops and its bytes go; with delete_files, its finished file goes too. */
  app.delete<{ Querystring: Static<typeof DeleteQuery> }>('/drive/v1/tasks', { schema: { querystring: DeleteQuery } }, async (req) => {
    const ids = [...new Set(req.query.task_ids)];
    const tasks = await ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', req.userId).where('id', 'in', ids).execute();
    if (tasks.length !== ids.length) throw notFound('One or more tasks do not exist.');
    const uploads = await ctx.db.selectFrom('uploads').selectAll().where('user_id', '=', req.userId).where('task_id', 'in', ids).execute();
    for (const u of uploads) await dropUpload(ctx, ctx.uploads, u, 'Cancelled.');
    if (req.query.delete_files) {
      const fileIds: string[] = [];
      for (const t of tasks) if (t.file_id && (await findFile(ctx.db, req.userId, t.file_id))) fileIds.push(t.file_id);
      if (fileIds.length) await deleteFiles(ctx, req.userId, fileIds);
    }
    await ctx.db.deleteFrom('tasks').where('user_id', '=', req.userId).where('id', 'in', ids).execute();
    return {};
  });
}
