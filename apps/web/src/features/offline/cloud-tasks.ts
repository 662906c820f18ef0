/**
 * The cloud downloads of the transfer list: read from the server, every 2 s while one is waiting or running and every
 * 30 s otherwise (a download runs for minutes, so the list keeps itself current), and up to 10 times 500 ms apart
 * after a batch action, as the seeds poll. A task that completes brings its file into the local database at once, and
 * one just added from the dialog has its file opened or shown (after-add.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { PHASE } from '@haul/shared/plain';
import type { DriveTask } from '@haul/shared';
import { settleFileChanges } from '../files/settle-changes';
import { listCloudTasks } from './offline-api';
import { onCloudAction, pollAfterAction } from './cloud-task-poll';
import { showTaskLimit, taskLimit } from './cloud-task-words';
import { noteTasks } from './after-add';

const ACTIVE_POLL_MS = 2000;
const IDLE_POLL_MS = 30_000;

const moving = (t: DriveTask) => t.phase === PHASE.PENDING || t.phase === PHASE.RUNNING;

export function useCloudTasks(userId: string | undefined): DriveTask[] {
  const { data, refetch } = useQuery({
    queryKey: ['cloud-tasks', userId],
    queryFn: ({ signal }) => listCloudTasks(signal),
    enabled: !!userId,
    refetchInterval: (q) => (q.state.data?.some(moving) ? ACTIVE_POLL_MS : IDLE_POLL_MS),
  });
  // After an action: a newer action restarts the polling, leaving the list stops it.
  useEffect(() => {
    let run = 0;
    let gone = false;
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const off = onCloudAction(() => {
      const mine = ++run;
      void pollAfterAction({
        read: () => refetch({ throwOnError: true }).then((r) => r.data ?? []),
        sleep,
        stopped: () => gone || mine !== run,
      });
    });
    return () => {
      gone = true;
      off();
    };
  }, [refetch]);
  // Phases as last seen; null before the first answer, whose finished tasks are old news.
  const phases = useRef<Map<string, string> | null>(null);
  // Files of each torrent already in the drive, as last seen: each lands as soon as it is done.
  const landed = useRef(new Map<string, string>());
  useEffect(() => {
    if (!data) return;
    const seen = phases.current;
    // Completed since the last answer, or new and already complete (content the server had fetched before), or a
    // torrent with more of its files in the drive: the drive picks them up.
    const completed = seen && data.some((t) => t.phase === PHASE.COMPLETE && seen.get(t.id) !== PHASE.COMPLETE);
    const more = data.some((t) => t.phase !== PHASE.COMPLETE && !!t.params.landed && t.params.landed !== landed.current.get(t.id));
    if (completed || more) void settleFileChanges();
    landed.current = new Map(data.map((t) => [t.id, t.params.landed ?? '']));
    // Stopped by a limit while it ran (its size was known only then): the limit dialog opens, as for an upload.
    const limited = seen && data.find((t) => t.phase === PHASE.ERROR && seen.get(t.id) !== PHASE.ERROR && taskLimit(t));
    if (limited) showTaskLimit(limited);
    // Downloads just added from the dialog: their files open or show where the person is (after-add.ts).
    noteTasks(data);
    phases.current = new Map(data.map((t) => [t.id, t.phase]));
  }, [data]);
  return data ?? [];
}
