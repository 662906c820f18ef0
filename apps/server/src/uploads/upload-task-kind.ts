/** Uploads as tasks: removing one in flight stops it, and its bytes and tus state go. */
import type { TaskKind } from '../tasks/task-kinds.js';
import { dropUpload, UPLOAD } from './uploads.service.js';

export const uploadTaskKind: TaskKind = {
  type: UPLOAD,
  async release(ctx, userId, task) {
    const uploads = await ctx.db.selectFrom('uploads').selectAll().where('user_id', '=', userId).where('task_id', '=', task.id).execute();
    for (const u of uploads) await dropUpload(ctx, ctx.uploads, u, 'Cancelled.');
  },
};
