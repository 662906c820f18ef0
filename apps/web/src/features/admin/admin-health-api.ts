/** The System page's health calls (`/admin/v1/system/…`), under the console's query key so a change refreshes them. */
import { haul } from '../../lib/api-client';
import { ADMIN_KEY } from './admin-api';

export type StorageStatus = Awaited<ReturnType<typeof getStorage>>;
export type QueuesStatus = Awaited<ReturnType<typeof getQueues>>;
export type TroubledJob = QueuesStatus['jobs'][number];
export type ProcessInfo = Awaited<ReturnType<typeof getProcesses>>['processes'][number];
export type ConfigEntry = Awaited<ReturnType<typeof getConfig>>['entries'][number];
export type StatsAnswer = Awaited<ReturnType<typeof getStats>>;

export const HEALTH_KEY = [...ADMIN_KEY, 'health'] as const;
export const STORAGE_KEY = [...HEALTH_KEY, 'storage'] as const;
export const QUEUES_KEY = [...HEALTH_KEY, 'queues'] as const;
export const PROCESSES_KEY = [...HEALTH_KEY, 'processes'] as const;
export const CONFIG_KEY = [...HEALTH_KEY, 'config'] as const;
export const STATS_KEY = [...HEALTH_KEY, 'stats'] as const;

/** Blobs, references and the local disk's free space. */
export const getStorage = (signal?: AbortSignal) => haul.call('adminStorage', { signal });

/** Counts per queue and the newest failed or stuck jobs. */
export const getQueues = (signal?: AbortSignal) => haul.call('adminQueues', { signal });

/** Puts a failed or stuck job back in its queue. */
export const retryJob = (job: Pick<TroubledJob, 'kind' | 'id'>) => haul.call('adminRetryJob', { params: { kind: job.kind, id: job.id } });

/** Processes seen within the last day, alive or gone. */
export const getProcesses = (signal?: AbortSignal) => haul.call('adminProcesses', { signal });

/** The effective configuration, secrets masked. */
export const getConfig = (signal?: AbortSignal) => haul.call('adminConfig', { signal });

/** Usage counts per day over the last 30 days. */
export const getStats = (signal?: AbortSignal) => haul.call('adminStats', { query: { days: 30 }, signal });
