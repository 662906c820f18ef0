/** /drive/v1/tasks: read a task's progress, cancel tasks. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import { presentFile } from '../files/files.presenter.js';
import { findFile, userFilesIn } from '../files/files.repository.js';
import { deleteFiles } from '../files/trash.service.js';
import { serve } from '../http/contract.js';
import { badInput, notFound } from '../http/errors.js';
import { decodeTimeCursor, encodePageToken } from '../lib/page-token.js';
import { dropOfflineBytes, OFFLINE, retryTask, setOfflinePhase } from '../offline/offline.service.js';
import { dropUpload } from '../uploads/uploads.service.js';
import { requireTask } from './tasks.repository.js';
import { presentStatusHistory, presentTask } from './tasks.presenter.js';

/** `{"phase":{"in":"A,B"}}`, `{"phase":{"eq":"A"}}` and `{"id":{"in":"x,y"}}`, as the task list takes them. */
function parseTaskFilters(raw: string | undefined): { phases?: string[]; ids?: string[] } {
  if (!raw) return {};
  let f: Record<string, Record<string, unknown>>;
  try {
    f = JSON.parse(raw);
    if (!f || typeof f !== 'object' || Array.isArray(f)) throw new Error();
  } catch {
    throw badInput('filters must be a JSON object.');
  }
  const list = (v: unknown) => String(v).split(',').map((x) => x.trim()).filter(Boolean);
  const out: { phases?: string[]; ids?: string[] } = {};
  for (const [key, ops] of Object.entries(f)) {
    const value = ops?.in ?? ops?.eq;
    if (value === undefined) throw badInput(`filters.${key} takes "in" or "eq".`);
    if (key === 'phase') out.phases = list(value);
    else if (key === 'id') out.ids = list(value);
    else throw badInput(`filters: unknown field "${key}".`);
  }
  return out;
}
/** `onCreated` wakes the workers; `onStopped` tells whichever process runs a task that it was paused or deleted. */
export async function tasksRoutes(app: FastifyInstance, ctx: AppContext, onCreated: () => void, onStopped: (taskIds: string[]) => void = () => undefined): Promise<void> {
  const retentionMs = ctx.config.trashRetentionDays * 86_400_000;

  serve(app, C.listTasks, async (req) => {
    const limit = req.query.limit ?? 100;
    const f = parseTaskFilters(req.query.filters);
    let q = ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', req.userId);
    if (req.query.type) q = q.where('type', '=', req.query.type);
    if (f.phases) q = q.where('phase', 'in', f.phases.length ? f.phases : ['']);
    if (f.ids) q = q.where('id', 'in', f.ids.length ? f.ids : ['']);
    if (req.query.page_token) {
      const [t, id] = decodeTimeCursor(req.query.page_token, 'tasks');
      q = q.where((eb) => eb.or([eb('created_time', '<', t), eb.and([eb('created_time', '=', t), eb('id', '<', id)])]));
    }
    const rows = await q.orderBy('created_time', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    const more = rows.length > limit;
    if (more) rows.pop();
    const fileIds = rows.map((r) => r.file_id).filter(Boolean);
    const files = fileIds.length ? await ctx.db.selectFrom('files').selectAll().where(userFilesIn(req.userId, [...new Set(fileIds)])).execute() : [];
    const byId = new Map(files.map((f) => [f.id, presentFile(f, { retentionMs })]));
    const last = rows[rows.length - 1];
    return {
      tasks: rows.map((r) => presentTask(r, byId.get(r.file_id) ?? null)),
      next_page_token: more && last ? encodePageToken('tasks', [last.created_time, last.id]) : '',
    };
  });

  serve(app, C.getTask, async (req) => {
    const task = await requireTask(ctx.db, req.userId, req.params.id);
    const file = task.file_id ? await findFile(ctx.db, req.userId, task.file_id) : undefined;
    return presentTask(task, file ? presentFile(file, { retentionMs }) : null);
  });

  /** A task keeps only its current status (docs/decisions/processes.md, Tasks): the history is that one status. */
  serve(app, C.taskStatuses, async (req) => {
    const task = await requireTask(ctx.db, req.userId, req.params.id);
    return { statuses: presentStatusHistory(task).slice(0, req.query.limit ?? 10) };
  });

  serve(app, C.retryTask, async (req) => {
    const task = await retryTask(ctx, req.userId, req.body.id, req.id);
    onCreated();
    return { task: presentTask(task) };
  });

  /** Pauses a cloud download or continues it: {phase: PHASE_TYPE_PAUSED | PHASE_TYPE_PENDING}. */
  serve(app, C.updateTask, async (req) => {
    const task = await setOfflinePhase(ctx, req.userId, req.params.id, req.body.phase);
    if (task.phase === PHASE.PENDING) onCreated();
    if (task.phase === PHASE.PAUSED) onStopped([task.id]);
    return presentTask(task);
  });

  /** Stops and removes tasks: an upload in flight stops and its bytes go; with deleteFiles, a finished file goes too. */
  async function removeTasks(userId: string, tasks: TaskRow[], deleteFilesToo: boolean): Promise<void> {
    const ids = tasks.map((t) => t.id);
    if (!ids.length) return;
    const uploads = await ctx.db.selectFrom('uploads').selectAll().where('user_id', '=', userId).where('task_id', 'in', ids).execute();
    for (const u of uploads) await dropUpload(ctx, ctx.uploads, u, 'Cancelled.');
    // A download that is running stops when its worker next reports; one that is not leaves no bytes behind.
    for (const t of tasks) if (t.type === OFFLINE) await dropOfflineBytes(ctx.config.dataDir, t.id);
    if (deleteFilesToo) {
      const fileIds: string[] = [];
      for (const t of tasks) if (t.file_id && (await findFile(ctx.db, userId, t.file_id))) fileIds.push(t.file_id);
      if (fileIds.length) await deleteFiles(ctx, userId, fileIds);
    }
    await ctx.db.deleteFrom('tasks').where('user_id', '=', userId).where('id', 'in', ids).execute();
    // Read as pending, it may have been claimed since: both are told.
    onStopped(tasks.filter((t) => t.phase === PHASE.RUNNING || t.phase === PHASE.PENDING).map((t) => t.id));
  }

  serve(app, C.deleteTasks, async (req) => {
    const ids = [...new Set(req.query.task_ids)];
    const tasks = await ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', req.userId).where('id', 'in', ids).execute();
    if (tasks.length !== ids.length) throw notFound('One or more tasks do not exist.');
    await removeTasks(req.userId, tasks, !!req.query.delete_files);
    return {};
  });

  /** Clears the transfer list: every task of a type in the given phases (the finished ones, say). */
  serve(app, C.clearTasks, async (req) => {
    const known: string[] = Object.values(PHASE);
    const bad = req.body.phases.find((p) => !known.includes(p));
    if (bad) throw badInput(`phases: unknown phase "${bad.slice(0, 40)}".`);
    const tasks = await ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('user_id', '=', req.userId)
      .where('type', '=', req.body.type)
      .where('phase', 'in', req.body.phases)
      .execute();
    await removeTasks(req.userId, tasks, !!req.body.delete_files);
    return { count: tasks.length };
  });
}
