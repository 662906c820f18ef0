/**
 * The console's system health (`/admin/v1/system/…`): storage in use, the background queues and their failed or stuck
 * jobs (with a retry), the processes alive, the effective configuration with its secrets masked, and the usage
 * counts per day. Operators only (auth `admin`).
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { DecimalString, StringEnum, TimeString } from './schema-kit.js';

const tag = 'Administration';

/** The background queues the console watches: cloud downloads, unpacking and transcodes. */
export const JOB_KINDS = ['offline', 'decompress', 'transcode'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

const StorageSchema = Type.Object({
  blob_count: DecimalString('Blobs stored (each content once), unreferenced ones awaiting their purge included.'),
  blob_bytes: DecimalString('Bytes those blobs take in the store.'),
  reference_count: DecimalString('References to blobs: files (trash included), thumbnails and video renditions.'),
  referenced_bytes: DecimalString('What the references would take without de-duplication.'),
  unreferenced_count: DecimalString('Blobs no longer referenced, deleted after their grace period.'),
  unreferenced_bytes: DecimalString(),
  store: StringEnum(['local', 's3'] as const),
  disk_free_bytes: Type.Union([DecimalString(), Type.Null()], { description: "Free bytes on the local store's disk; null for a bucket (no figure) or when unknown." }),
  disk_total_bytes: Type.Union([DecimalString(), Type.Null()], { description: "The local store's disk size; null for a bucket." }),
});

const QueueCountsSchema = Type.Object({
  kind: StringEnum(JOB_KINDS),
  waiting: Type.Integer(),
  running: Type.Integer({ description: 'Running, stuck ones included.' }),
  failed: Type.Integer(),
  stuck: Type.Integer({ description: 'Running, but no worker has reported within the lease (its worker is gone).' }),
});

const JobSchema = Type.Object({
  kind: StringEnum(JOB_KINDS),
  id: Type.String({ description: "The task's id; a transcode's content hash." }),
  state: StringEnum(['failed', 'stuck'] as const),
  name: Type.String({ description: "The task's name ('' for a transcode)." }),
  message: Type.String({ description: 'Why it failed, as the worker wrote it.' }),
  user_id: Type.String({ description: "The account it belongs to ('' when none)." }),
  user_email: Type.String(),
  updated_time: TimeString('When a worker last wrote to it.'),
  retryable: Type.Boolean({ description: 'Whether the retry call can put it back in the queue.' }),
});

const ProcessSchema = Type.Object({
  id: Type.String(),
  role: StringEnum(['all', 'serve', 'worker'] as const),
  version: Type.String(),
  host: Type.String(),
  pid: Type.Integer(),
  started_time: TimeString(),
  seen_time: TimeString('Its last heartbeat (every 30 s).'),
  alive: Type.Boolean({ description: 'Seen within the last 2 minutes; rows not seen for a day are purged.' }),
});

const ConfigEntrySchema = Type.Object({
  key: Type.String({ description: 'The setting as the server names it, nested with dots: `s3.bucket`, `oidcProviders.0.clientId`.' }),
  value: Type.String({ description: "Its value as text; '' when masked." }),
  masked: Type.Boolean({ description: 'A secret (password, token, key) that is set: its value is never answered.' }),
});

export const adminHealthRoutes = {
  adminStorage: route({
    method: 'GET',
    path: '/admin/v1/system/storage',
    tag,
    summary: 'Storage in use',
    description: "Blobs and their bytes, references, blobs awaiting their purge (one aggregate over the blob table), and the local store's free disk space.",
    auth: 'admin',
    response: StorageSchema,
    errors: {},
  }),
  adminQueues: route({
    method: 'GET',
    path: '/admin/v1/system/queues',
    tag,
    summary: 'Background queues',
    description: 'Per kind (cloud downloads, unpacking, transcodes): jobs waiting, running, failed and stuck; and the newest 50 failed or stuck jobs.',
    auth: 'admin',
    response: Type.Object({ queues: Type.Array(QueueCountsSchema), jobs: Type.Array(JobSchema) }),
    errors: {},
  }),
  adminRetryJob: route({
    method: 'POST',
    path: '/admin/v1/system/jobs/:kind/:id/retry',
    tag,
    summary: 'Retry a failed or stuck job',
    description:
      "A failed cloud download is made anew (as its owner's retry does: a new task id); a failed transcode goes back to the queue; a stuck job of any kind goes back to waiting. Recorded in the audit log.",
    auth: 'admin',
    params: Type.Object({ kind: StringEnum(JOB_KINDS), id: Type.String({ minLength: 1, maxLength: 100 }) }),
    response: Type.Object({ kind: StringEnum(JOB_KINDS), id: Type.String({ description: 'The job as it is now (a retried cloud download has a new id).' }), state: Type.Literal('waiting') }),
    errors: { not_found: 'No such job.', invalid_argument: 'The job has neither failed nor is stuck, or its kind has no retry for failures (unpacking).' },
  }),
  adminProcesses: route({
    method: 'GET',
    path: '/admin/v1/system/processes',
    tag,
    summary: 'Processes',
    description: 'Every serve, worker and all process that sent a heartbeat within the last day: role, version, host, pid, when it started and was last seen, and whether it is alive.',
    auth: 'admin',
    response: Type.Object({ processes: Type.Array(ProcessSchema) }),
    errors: {},
  }),
  adminConfig: route({
    method: 'GET',
    path: '/admin/v1/system/config',
    tag,
    summary: 'Effective configuration',
    description: "The server's settings as this process runs them (run-time settings laid over the environment); passwords, tokens and keys are masked, and credentials are taken out of addresses.",
    auth: 'admin',
    response: Type.Object({ entries: Type.Array(ConfigEntrySchema) }),
    errors: {},
  }),
  adminStats: route({
    method: 'GET',
    path: '/admin/v1/system/stats',
    tag,
    summary: 'Usage counts per day',
    description: "The usage events counted per day (the operator's time zone) over the last `days` days.",
    auth: 'admin',
    query: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, default: 30 })) }),
    response: Type.Object({
      days: Type.Array(Type.String(), { description: 'Every day of the span, oldest first (YYYY-MM-DD).' }),
      events: Type.Array(Type.String(), { description: 'The event names counted in the span, sorted.' }),
      counts: Type.Array(Type.Object({ day: Type.String(), event: Type.String(), count: Type.Integer() })),
    }),
    errors: { invalid_argument: 'days out of range.' },
  }),
};
