/**
 * After cloud downloads are added (seed 000 §2: "After a task is created the user goes to the recent route… with speed
 * save on, the file opens, otherwise the new file ids are highlighted"): the tasks are followed in the transfer list's
 * own polling (cloud-tasks.ts) until each lands; a landed file is queued here for the drive to open or highlight
 * (landing-watcher.tsx). A task that fails is dropped: the transfer list says why.
 */
import { create } from 'zustand';
import { PHASE } from '@haul/shared/plain';
import type { DriveFile, DriveTask } from '@haul/shared';

/**
 * Where the person goes once downloads are added (seed 000 §2: "the user goes to the recent route"): Recent, where
 * the new files show as they land, unless the screen on show already lists them (the target folder, or Recent).
 */
export function screenAfterAdd(pathname: string, targetId: string): string | null {
  if (pathname.startsWith('/recent') || pathname === (targetId ? `/all/${targetId}` : '/all')) return null;
  return '/recent';
}

/** A file a followed download made, and whether it should open by itself. */
export interface Landed {
  file: DriveFile;
  open: boolean;
}

interface Landings {
  /** Followed tasks by id: true when the file is to open by itself. */
  waiting: ReadonlyMap<string, boolean>;
  landed: Landed[];
}

export const useLandings = create<Landings>()(() => ({ waiting: new Map(), landed: [] }));

/** Follows the tasks just added; with `open`, the first file to land opens in the viewer. */
export function expectLanding(tasks: readonly DriveTask[], open: boolean): void {
  const waiting = new Map(useLandings.getState().waiting);
  for (const t of tasks) waiting.set(t.id, open);
  useLandings.setState({ waiting });
}

/** Takes a fresh read of the cloud tasks: followed ones that completed with a file land, failed ones are let go. */
export function noteTasks(tasks: readonly DriveTask[]): void {
  const { waiting, landed } = useLandings.getState();
  if (!waiting.size) return;
  const still = new Map(waiting);
  const fresh: Landed[] = [];
  for (const t of tasks) {
    if (!still.has(t.id)) continue;
    if (t.phase === PHASE.ERROR) still.delete(t.id);
    if (t.phase !== PHASE.COMPLETE) continue;
    if (t.reference_resource && !t.reference_resource.trashed) fresh.push({ file: t.reference_resource, open: still.get(t.id)! });
    still.delete(t.id);
  }
  if (still.size !== waiting.size) useLandings.setState({ waiting: still, landed: [...landed, ...fresh] });
}

/** Hands over the files that landed since the last call. */
export function takeLanded(): Landed[] {
  const { landed } = useLandings.getState();
  if (landed.length) useLandings.setState({ landed: [] });
  return landed;
}
