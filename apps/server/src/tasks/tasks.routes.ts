/** /drive/v1/tasks: read, list, pause, retry and remove tasks of any kind (each kind's own part: task-kinds.ts). */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import { presentFile } from '../files/files.presenter.js';
import { findFile, userFilesIn } from '../files/files.repository.js';
import { deleteFiles } from '../files/trash.service.js';
import { serve } from '../http/contract.js';
import { badInput, notFound } from '../http/errors.js';
import { filterList, filterOperator, readFilters } from '../http/filters.js';
import type { TaskKinds } from './task-kinds.js';
import { deleteTasks, listTasks, requireTask, tasksByIds, tasksInPhases } from './tasks.repository.js';
import { presentStatusHistory, presentTask } from './tasks.presenter.js';

/** `{"phase":{"in":"A,B"}}`, `{"phase":{"eq":"A"}}` and `{"id":{"in":"x,y"}}`, as the task list takes them. */
function parseTaskFilters(raw: string | undefined): { phases?: string[]; ids?: string[] } {
  const f = readFilters(raw, ['phase', 'id']);
  const listOf = (key: 'phase' | 'id') => (f[key] ? filterList(filterOperator(f[key], key, ['in', 'eq'])[1], key) : undefined);
  return { phases: listOf('phase'), ids: listOf('id') };
}

/** `onCreated` wakes the workers; `onStopped` tells whichever process runs a task that it was paused or deleted. */
export async function tasksRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  kinds: TaskKinds,
  onCreated: () => void,
  onStopped: (taskIds: string[]) => void = () => undefined,
): Promise<void> {
  const retentionMs = ctx.config.trashRetentionDays * 86_400_000;

  serve(app, C.listTasks, async (req) => {
    const { phases, ids } = parseTaskFilters(req.query.filters);
    const page = await listTasks(ctx.db, req.userId, { type: req.query.type, phases, ids, limit: req.query.limit ?? 100, pageToken: req.query.page_token });
    const fileIds = [...new Set(page.rows.map((r) => r.file_id).filter(Boolean))];
    const files = fileIds.length ? await ctx.db.selectFrom('files').selectAll().where(userFilesIn(req.userId, fileIds)).execute() : [];
    const byId = new Map(files.map((f) => [f.id, presentFile(f, { retentionMs })]));
    return { tasks: page.rows.map((r) => presentTask(r, byId.get(r.file_id) ?? null)), next_page_token: page.nextPageToken };
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
    const old = await requireTask(ctx.db, req.userId, req.body.id);
    const retry = kinds.get(old.type)?.retry;
    if (!retry) throw badInput(`A task of type "${old.type}" cannot be retried.`);
    const task = await retry(ctx, req.userId, old, req.id);
    onCreated();
    return { task: presentTask(task) };
  });

  /** Pauses a task or continues it: {phase: PHASE_TYPE_PAUSED | PHASE_TYPE_PENDING}. */
  serve(app, C.updateTask, async (req) => {
    const old = await requireTask(ctx.db, req.userId, req.params.id);
    const setPhase = kinds.get(old.type)?.setPhase;
    if (!setPhase) throw badInput(`A task of type "${old.type}" cannot be paused and continued.`);
    const task = await setPhase(ctx, req.userId, old, req.body.phase);
    if (task.phase === PHASE.PENDING) onCreated();
    if (task.phase === PHASE.PAUSED) onStopped([task.id]);
    return presentTask(task);
  });

  /** Stops and removes tasks: each kind lets go of what it holds; with deleteFiles, a finished file goes too. */
  async function removeTasks(userId: string, tasks: TaskRow[], deleteFilesToo: boolean): Promise<void> {
    if (!tasks.length) return;
    for (const t of tasks) await kinds.get(t.type)?.release?.(ctx, userId, t);
    if (deleteFilesToo) {
      const fileIds: string[] = [];
      for (const t of tasks) if (t.file_id && (await findFile(ctx.db, userId, t.file_id))) fileIds.push(t.file_id);
      if (fileIds.length) await deleteFiles(ctx, userId, fileIds);
    }
    await deleteTasks(ctx.db, userId, tasks.map((t) => t.id));
    // Read as pending, it may have been claimed since: both are told.
    onStopped(tasks.filter((t) => t.phase === PHASE.RUNNING || t.phase === PHASE.PENDING).map((t) => t.id));
  }

  serve(app, C.deleteTasks, async (req) => {
    const ids = [...new Set(req.query.task_ids)];
    const tasks = await tasksByIds(ctx.db, req.userId, ids);
    if (tasks.length !== ids.length) throw notFound('One or more tasks do not exist.');
    await removeTasks(req.userId, tasks, !!req.query.delete_files);
    return {};
  });

  /** Clears the transfer list: every task of a type in the given phases (the finished ones, say). */
  serve(app, C.clearTasks, async (req) => {
    const known: string[] = Object.values(PHASE);
    const bad = req.body.phases.find((p) => !known.includes(p));
    if (bad) throw badInput(`phases: unknown phase "${bad.slice(0, 40)}".`);
    const tasks = await tasksInPhases(ctx.db, req.userId, req.body.type, req.body.phases);
    await removeTasks(req.userId, tasks, !!req.body.delete_files);
    return { count: tasks.length };
  });
}
