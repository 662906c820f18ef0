/**
 * The background queues as the console shows them: cloud downloads and unpacking (rows of `tasks`) and transcodes
 * (`media_jobs`), counted by state, with the newest failed or stuck jobs and an operator's retry. Stuck: running, but
 * not written to within the lease (HAUL_TASK_LEASE), which a live worker renews with every report; such a job waits
 * for a worker of its kind to take it over, which the retry does at once by putting it back to waiting.
 */
import { sql } from 'kysely';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import { recordAudit } from '../audit/audit.repository.js';
import { HttpError, badInput } from '../http/errors.js';
import { toRfc3339 } from '../lib/time.js';
import { retryJob as retryTranscode } from '../media/media.repository.js';
import { DECOMPRESS } from '../archives/archives.service.js';
import { offlineTaskKind } from '../offline/offline-task-kind.js';
import { OFFLINE } from '../offline/offline.service.js';
import { taskKinds } from '../tasks/task-kinds.js';

/** The contract's JOB_KINDS. */
type JobKind = 'offline' | 'decompress' | 'transcode';
/** The task types the console watches (uploads are a person's own transfers, not a queue). */
const TASK_TYPES: JobKind[] = [OFFLINE as 'offline', DECOMPRESS as 'decompress'];
/** The kinds' own retries of a failed task (tasks/task-kinds.ts); unpacking has none. */
const KINDS = taskKinds([offlineTaskKind]);
const LIST = 50;

const leaseCutoff = (ctx: AppContext) => ctx.clock.now() - ctx.config.taskLeaseSeconds * 1000;
const n = (v: unknown) => Number(v ?? 0);

/** Waiting, running, failed and stuck jobs per kind: one grouped query on each table. */
async function countQueues(ctx: AppContext) {
  const cutoff = leaseCutoff(ctx);
  const phases = [PHASE.PENDING, PHASE.RUNNING, PHASE.ERROR];
  const stuck = sql<number>`sum(case when phase = ${PHASE.RUNNING} and updated_time < ${cutoff} then 1 else 0 end)`;
  const [tasks, media] = await Promise.all([
    ctx.db.selectFrom('tasks').select(['type', 'phase', sql<number>`count(*)`.as('n'), stuck.as('stuck')]).where('type', 'in', TASK_TYPES).where('phase', 'in', phases).groupBy(['type', 'phase']).execute(),
    ctx.db.selectFrom('media_jobs').select(['phase', sql<number>`count(*)`.as('n'), stuck.as('stuck')]).where('phase', 'in', phases).groupBy('phase').execute(),
  ]);
  const rows = [...tasks.map((r) => ({ ...r, kind: r.type })), ...media.map((r) => ({ ...r, kind: 'transcode' }))];
  const kinds: JobKind[] = [...TASK_TYPES, 'transcode'];
  return kinds.map((kind) => {
    const of = (phase: string) => rows.find((r) => r.kind === kind && r.phase === phase);
    return { kind, waiting: n(of(PHASE.PENDING)?.n), running: n(of(PHASE.RUNNING)?.n), failed: n(of(PHASE.ERROR)?.n), stuck: n(of(PHASE.RUNNING)?.stuck) };
  });
}

/** The newest failed or stuck jobs of every kind, at most 50, each with its owner's address. */
async function troubledJobs(ctx: AppContext) {
  const cutoff = leaseCutoff(ctx);
  /** Failed, or running past the lease, in `table`. */
  const troubled = (table: 'tasks' | 'media_jobs') =>
    sql<boolean>`(${sql.ref(`${table}.phase`)} = ${PHASE.ERROR} or (${sql.ref(`${table}.phase`)} = ${PHASE.RUNNING} and ${sql.ref(`${table}.updated_time`)} < ${cutoff}))`;
  const [tasks, media] = await Promise.all([
    ctx.db
      .selectFrom('tasks')
      .leftJoin('users', 'users.id', 'tasks.user_id')
      .select(['tasks.id', 'tasks.type', 'tasks.phase', 'tasks.name', 'tasks.message', 'tasks.user_id', 'tasks.updated_time', 'users.email'])
      .where('tasks.type', 'in', TASK_TYPES)
      .where(troubled('tasks'))
      .orderBy('tasks.updated_time', 'desc')
      .limit(LIST)
      .execute(),
    ctx.db
      .selectFrom('media_jobs')
      .leftJoin('users', 'users.id', 'media_jobs.user_id')
      .select(['media_jobs.hash', 'media_jobs.phase', 'media_jobs.message', 'media_jobs.user_id', 'media_jobs.updated_time', 'users.email'])
      .where(troubled('media_jobs'))
      .orderBy('media_jobs.updated_time', 'desc')
      .limit(LIST)
      .execute(),
  ]);
  const jobs = [
    ...tasks.map((t) => ({ kind: t.type as JobKind, id: t.id, phase: t.phase, name: t.name, message: t.message, user_id: t.user_id, email: t.email, updated: n(t.updated_time) })),
    ...media.map((m) => ({ kind: 'transcode' as JobKind, id: m.hash, phase: m.phase, name: '', message: m.message, user_id: m.user_id, email: m.email, updated: n(m.updated_time) })),
  ];
  return jobs
    .sort((a, b) => b.updated - a.updated)
    .slice(0, LIST)
    .map((j) => {
      const state = j.phase === PHASE.ERROR ? ('failed' as const) : ('stuck' as const);
      return {
        kind: j.kind,
        id: j.id,
        state,
        name: j.name,
        message: j.message,
        user_id: j.user_id,
        user_email: j.email ?? '',
        updated_time: toRfc3339(j.updated),
        retryable: state === 'stuck' || j.kind === 'transcode' || KINDS.has(j.kind),
      };
    });
}

/** Counts per kind and the newest failed or stuck jobs. */
export async function queuesStatus(ctx: AppContext) {
  const [queues, jobs] = await Promise.all([countQueues(ctx), troubledJobs(ctx)]);
  return { queues, jobs };
}

const jobNotFound = () => new HttpError(404, 'not_found', 'No such job.');

/**
 * Puts a failed or stuck job back in the queue and records it in the audit log. A failed cloud download is made
 * anew by its kind's own retry (a new task in its owner's queue); a failed transcode goes back as its owner's play
 * would send it; a stuck job of any kind goes back to waiting (as the queue does for it once a worker looks). The
 * workers find it on their next poll (a second; two for transcodes).
 */
export async function retryJob(ctx: AppContext, actor: { id: string; ip: string; requestId: string }, kind: JobKind, id: string) {
  const now = ctx.clock.now();
  const cutoff = leaseCutoff(ctx);
  let subject: string;
  let newId = id;
  let from: 'failed' | 'stuck';
  if (kind === 'transcode') {
    const job = await ctx.db.selectFrom('media_jobs').select(['phase', 'updated_time', 'user_id']).where('hash', '=', id).executeTakeFirst();
    if (!job) throw jobNotFound();
    subject = job.user_id;
    if (job.phase === PHASE.ERROR) {
      from = 'failed';
      if (!(await retryTranscode(ctx.db, id, now))) throw badInput('The job is no longer failed.');
    } else if (job.phase === PHASE.RUNNING && n(job.updated_time) < cutoff) {
      from = 'stuck';
      const res = await ctx.db.updateTable('media_jobs').set({ phase: PHASE.PENDING, lease_id: '' }).where('hash', '=', id).where('phase', '=', PHASE.RUNNING).where('updated_time', '<', cutoff).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw badInput('The job is no longer stuck.');
      // Its interrupted renditions start over, as when a worker takes over a job after its lease.
      await ctx.db.updateTable('media_renditions').set({ phase: PHASE.PENDING, progress: 0 }).where('hash', '=', id).where('phase', '=', PHASE.RUNNING).execute();
    } else throw badInput('Only a failed or stuck job can be retried.');
  } else {
    const task = await ctx.db.selectFrom('tasks').selectAll().where('id', '=', id).where('type', '=', kind).executeTakeFirst();
    if (!task) throw jobNotFound();
    subject = task.user_id;
    if (task.phase === PHASE.ERROR) {
      from = 'failed';
      const retry = KINDS.get(task.type)?.retry;
      if (!retry) throw badInput(`A failed task of type "${task.type}" cannot be retried.`);
      newId = (await retry(ctx, task.user_id, task, actor.requestId)).id;
    } else if (task.phase === PHASE.RUNNING && task.updated_time < cutoff) {
      from = 'stuck';
      const res = await ctx.db.updateTable('tasks').set({ phase: PHASE.PENDING }).where('id', '=', id).where('phase', '=', PHASE.RUNNING).where('updated_time', '<', cutoff).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw badInput('The task is no longer stuck.');
    } else throw badInput('Only a failed or stuck task can be retried.');
  }
  await recordAudit(ctx.db, { action: 'admin.job.retried', subjectId: subject, actorId: actor.id, ip: actor.ip, details: { kind, job: id, state: from, ...(newId !== id ? { new_job: newId } : {}) } }, now);
  return { kind, id: newId, state: 'waiting' as const };
}
