/** Tasks (uploads, cloud downloads and batch operations): list, read, retry, pause and continue, remove; torrent inspection. */
import { Type, type Static } from '@sinclair/typebox';
import { LIMITS, PHASE } from '../constants.js';
import { DriveTaskSchema } from '../entities.js';
import { route } from './define.js';
import { Empty } from './schema-kit.js';

const tag = 'Tasks';
const TaskId = Type.String({ minLength: 1, maxLength: 64, description: 'A task id.' });
const TaskIdParams = Type.Object({ id: TaskId });
const PHASES = Object.values(PHASE).join(', ');

export const TaskListSchema = Type.Object({
  tasks: Type.Array(DriveTaskSchema, { description: 'Newest first.' }),
  next_page_token: Type.String({ description: "Pass as page_token for the next page; '' on the last page." }),
});

export const TaskStatusSchema = Type.Object({
  phase: Type.String({ description: `One of ${PHASES}.` }),
  progress: Type.Number({ description: 'Percent done, 0 to 100.' }),
  message: Type.String({ description: "What went wrong for an error, else ''." }),
  time: Type.String({ description: 'When the task came to this status (RFC 3339).' }),
});

export const TaskStatusListSchema = Type.Object({
  statuses: Type.Array(TaskStatusSchema, { description: 'Newest first.' }),
});

export const TorrentInfoSchema = Type.Object({
  name: Type.String(),
  info_hash: Type.String({ description: 'The BitTorrent info hash, hex.' }),
  size: Type.String({ description: 'Bytes of all its files, as a decimal string.' }),
  files: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'What file_ids of POST /drive/v1/files names to keep this file.' }),
      path: Type.String({ description: "The file's path inside the torrent, '/'-separated." }),
      size: Type.String({ description: 'Bytes, as a decimal string.' }),
    }),
  ),
});

export const tasksRoutes = {
  listTasks: route({
    method: 'GET',
    path: '/drive/v1/tasks',
    tag,
    summary: 'List tasks',
    description:
      "A page of the user's tasks, newest first: uploads (type upload), cloud downloads (type offline) and the batch operations the files calls record. A task whose file still exists carries it in reference_resource.",
    auth: 'user',
    query: Type.Object({
      type: Type.Optional(Type.String({ maxLength: 40, description: 'Only tasks of this type (upload, offline, batch_trash, …).' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: 'Tasks a page (100 unless said).' })),
      page_token: Type.Optional(Type.String({ maxLength: 500, description: 'next_page_token of the page before.' })),
      filters: Type.Optional(
        Type.String({
          maxLength: 20000,
          description: `JSON: {"phase":{"in":"PHASE_TYPE_RUNNING,PHASE_TYPE_PENDING"}}, {"phase":{"eq":"PHASE_TYPE_ERROR"}} or {"id":{"in":"id1,id2"}}, alone or together. Phases: ${PHASES}.`,
        }),
      ),
      thumbnail_size: Type.Optional(Type.String({ maxLength: 40, description: 'Accepted for compatibility; ignored.' })),
      with: Type.Optional(Type.String({ maxLength: 100, description: 'Accepted for compatibility (reference_resource); the file is always included.' })),
    }),
    response: TaskListSchema,
    errors: { invalid_argument: 'filters is not JSON of the fields above, or page_token did not come from this listing.' },
  }),
  getTask: route({
    method: 'GET',
    path: '/drive/v1/tasks/:id',
    tag,
    summary: 'Get a task',
    description: "One task with its progress; poll it to follow an upload's or a cloud download's phase. reference_resource is the file once it exists.",
    auth: 'user',
    params: TaskIdParams,
    response: DriveTaskSchema,
    errors: { file_not_found: 'No such task of yours.' },
  }),
  taskStatuses: route({
    method: 'GET',
    path: '/drive/v1/task/:id/statuses',
    tag,
    summary: "A task's status history",
    description:
      "The statuses a task went through, newest first, at most limit of them. A task keeps only the status it is in now (its phase, progress and message), so the answer is that one status; a reader that follows a task by this route keeps working should more be kept later.",
    auth: 'user',
    params: TaskIdParams,
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Statuses to answer at most (10 unless said).' })),
    }),
    response: TaskStatusListSchema,
    errors: { file_not_found: 'No such task of yours.' },
  }),
  retryTask: route({
    method: 'POST',
    path: '/drive/v1/task',
    tag,
    summary: 'Retry a failed cloud download',
    description:
      "Starts a failed cloud download (phase PHASE_TYPE_ERROR) again as a new task, into the same folder, and removes the failed one. It replaces its task, so it does not count again against today's cloud downloads; what it fetches counts against the month's allowance.",
    auth: 'user',
    body: Type.Object({
      id: TaskId,
      create_type: Type.Literal('RETRY'),
      type: Type.Optional(Type.String({ maxLength: 40, description: 'offline; accepted for compatibility.' })),
    }),
    response: Type.Object({ task: DriveTaskSchema }),
    errors: {
      invalid_argument: 'The task is not a cloud download, or it has not failed.',
      file_not_found: 'No such task of yours, or its folder no longer exists.',
      file_in_recycle_bin: 'Its folder is in the trash.',
      monthly_cloud_download_size_exceeded: "The month's cloud download allowance is used up.",
      task_daily_create_limit: "Today's cloud downloads are used up.",
    },
    example: { id: '…', create_type: 'RETRY', type: 'offline' },
  }),
  updateTask: route({
    method: 'PATCH',
    path: '/drive/v1/tasks/:id',
    tag,
    summary: 'Pause or continue a cloud download',
    description: `phase ${PHASE.PAUSED} pauses a waiting or running cloud download (the bytes it has are kept); ${PHASE.PENDING} puts a paused one back in the queue, where it continues from those bytes. Asking for the phase the task is in already changes nothing; a download that finished or failed meanwhile answers as it is now.`,
    auth: 'user',
    params: TaskIdParams,
    body: Type.Object({ phase: Type.String({ maxLength: 40, description: `${PHASE.PAUSED} or ${PHASE.PENDING}.` }) }),
    response: DriveTaskSchema,
    errors: {
      invalid_argument: 'The task is not a cloud download, the phase is neither of the two, or the download is in no phase to pause (or continue).',
      file_not_found: 'No such task of yours.',
    },
    example: { phase: PHASE.PAUSED },
  }),
  deleteTasks: route({
    method: 'DELETE',
    path: '/drive/v1/tasks',
    tag,
    summary: 'Remove tasks',
    description:
      'Removes tasks and stops what they do: an upload in flight stops and its bytes are dropped; a cloud download stops and what it fetched is dropped. With delete_files=true, the files finished tasks made are deleted for good too. All or nothing: one unknown id removes none.',
    auth: 'user',
    query: Type.Object({
      task_ids: Type.Array(TaskId, { minItems: 1, maxItems: LIMITS.batchMaxIds, description: 'Repeat the name for each id: task_ids=a&task_ids=b.' }),
      delete_files: Type.Optional(Type.Boolean({ description: 'Also delete the files the tasks made.' })),
    }),
    response: Empty,
    errors: { file_not_found: 'An id is not one of your tasks.' },
  }),
  clearTasks: route({
    method: 'POST',
    path: '/drive/v1/tasks::clear',
    tag,
    summary: 'Clear the transfer list',
    description: 'Removes every task of one type in the given phases (the finished ones, say), as removing them one by one would: what still runs stops.',
    auth: 'user',
    body: Type.Object({
      type: Type.String({ minLength: 1, maxLength: 40, description: 'upload or offline (or a batch type).' }),
      phases: Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 10, description: `Any of ${PHASES}.` }),
      delete_files: Type.Optional(Type.Boolean({ description: 'Also delete the files the tasks made.' })),
      client_id: Type.Optional(Type.String({ maxLength: 100, description: 'Accepted for compatibility; ignored.' })),
    }),
    response: Type.Object({ count: Type.Integer({ description: 'Tasks removed.' }) }),
    errors: { invalid_argument: 'A phase is not one of the known phases.' },
    example: { type: 'offline', phases: [PHASE.COMPLETE], delete_files: false },
  }),
  inspectTorrent: route({
    method: 'POST',
    path: '/drive/v1/torrent::inspect',
    tag,
    summary: "List a torrent's files",
    description:
      "A torrent's name, size and files, so the person can choose what to keep (file_ids of POST /drive/v1/files) before adding it. From a .torrent file at once; from a magnet link, the server asks peers for the file list, which can take up to 30 seconds. Nothing is downloaded.",
    auth: 'user',
    body: Type.Object({
      url: Type.Optional(Type.String({ maxLength: 100_000, description: 'A magnet link; or…' })),
      torrent: Type.Optional(Type.String({ maxLength: 7_000_000, description: '…a .torrent file, base64.' })),
    }),
    response: TorrentInfoSchema,
    errors: {
      invalid_argument: 'Neither or both of url and torrent, a url that is not a magnet link, a torrent file that is empty, too large or not valid, or no peer gave the file list in time.',
    },
    example: { url: 'magnet:?xt=urn:btih:…' },
  }),
};

export type TaskList = Static<typeof TaskListSchema>;
export type TorrentInspection = Static<typeof TorrentInfoSchema>;
export type TaskStatus = Static<typeof TaskStatusSchema>;
