/** Upload tasks (seed 000 §3 "Upload task"): what the transfer list shows, kept locally so a reload loses nothing. */
import i18n from 'i18next';
import { create } from 'zustand';
import { localTasksOf } from '../sync/local-db';
import { COMPLETED, UPLOAD_STATUS, type UploadStatus } from './upload-status';

export interface UploadTask {
  taskId: string;
  userId: string;
  taskType: 'upload';
  name: string;
  parentId: string;
  relativePath: string;
  size: number;
  type: string;
  status: UploadStatus;
  /** 0..100. */
  progress: number;
  /** Bytes per second while sending. */
  speed: number;
  errorText: string;
  /** The server's task and, once done, the file. */
  task_id: string;
  fileId: string;
  /** Where the bytes go (tus); kept so a paused upload continues where it stopped. */
  uploadUrl: string;
  attempts: number;
  modifyTime: number;
  /** Stopped because the browser went offline: it continues by itself when the browser is back online. */
  offline?: boolean;
  /** The share of the progress done before sending (hashing), so a continued upload adds to it, not restarts it. */
  sendBase?: number;
  /** The person chose to replace the file of this name in the folder (it goes to the trash when this one lands). */
  replace?: boolean;
}

/** The transfer list's tabs (seed 000 §2): cloud downloads, uploads, and both kinds once finished. */
export type TransferTab = 'cloud' | 'uploading' | 'completed';

interface UploadState {
  tasks: Record<string, UploadTask>;
  /** Newest first. */
  order: string[];
  panelOpen: boolean;
  tab: TransferTab;
  upsert: (t: UploadTask) => void;
  patch: (id: string, change: Partial<UploadTask>) => void;
  remove: (ids: string[]) => void;
  setPanelOpen: (open: boolean) => void;
  setTab: (tab: TransferTab) => void;
}

export const useUploads = create<UploadState>()((set) => ({
  tasks: {},
  order: [],
  panelOpen: false,
  tab: 'cloud',
  upsert: (t) =>
    set((s) => ({
      tasks: { ...s.tasks, [t.taskId]: t },
      order: s.order.includes(t.taskId) ? s.order : [t.taskId, ...s.order],
    })),
  patch: (id, change) =>
    set((s) => {
      const cur = s.tasks[id];
      if (!cur) return s;
      // Any status change updates modifyTime.
      const modifyTime = change.status && change.status !== cur.status ? Date.now() : cur.modifyTime;
      return { tasks: { ...s.tasks, [id]: { ...cur, ...change, modifyTime } } };
    }),
  remove: (ids) =>
    set((s) => {
      const tasks = { ...s.tasks };
      ids.forEach((id) => delete tasks[id]);
      return { tasks, order: s.order.filter((id) => !ids.includes(id)) };
    }),
  setPanelOpen: (panelOpen) => set({ panelOpen }),
  setTab: (tab) => set({ tab }),
}));

export const activeUploads = () =>
  Object.values(useUploads.getState().tasks).filter((t) => t.status === UPLOAD_STATUS.ANALYSIS || t.status === UPLOAD_STATUS.TRANSMISSION)
    .length;

/** Loads the user's saved tasks; what was running when the page closed waits, paused, for its file to be picked again. */
export async function restoreUploads(userId: string): Promise<void> {
  const saved = (await localTasksOf(userId)) as unknown as UploadTask[];
  const store = useUploads.getState();
  for (const t of saved.sort((a, b) => a.modifyTime - b.modifyTime)) {
    if (store.tasks[t.taskId]) continue;
    const waiting = !COMPLETED.includes(t.status) && t.status !== UPLOAD_STATUS.FAILED;
    store.upsert(waiting ? { ...t, status: UPLOAD_STATUS.PAUSE, speed: 0, offline: false, errorText: i18n.t('uploads.pickAgain') } : t);
  }
}
