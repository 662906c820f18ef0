/** The one open dialog of the drive; selection changes are ignored while one is open (seed 000 §5). */
import { create } from 'zustand';
import type { Breadcrumb, DriveFile, DriveTask, ShareEntry } from '@haul/shared';

export type DialogState =
  | { type: 'create-folder'; parentId: string }
  | { type: 'rename'; file: DriveFile }
  | { type: 'pick-folder'; mode: 'move' | 'copy'; files: DriveFile[] }
  | { type: 'confirm'; title: string; body: string; confirmLabel: string; danger?: boolean; onConfirm: () => Promise<unknown> | void }
  | { type: 'details'; file: DriveFile }
  /** Links to fetch into a folder; `path` is that folder's chain from the root (empty for the root). */
  | {
      type: 'cloud-download';
      path: Breadcrumb[];
      /** Links to start with (pasted into the file list, shared from another app, or from a deep link). */
      text?: string;
      /** A .torrent file to start with (shared to the installed app, or opened with it). */
      torrentFile?: File;
    }
  | { type: 'remove-cloud-tasks'; tasks: DriveTask[] }
  /** A song or video of a torrent still downloading, played from what has arrived. */
  | { type: 'torrent-player'; task: DriveTask }
  | { type: 'share'; files: DriveFile[] }
  /** An existing link: copy its text again, change its validity or pass code. */
  | { type: 'share-manage'; entry: ShareEntry }
  /** A video or song (with its media links) to hand to a player on the computer. */
  | { type: 'external-player'; file: DriveFile };

interface DialogStore {
  dialog: DialogState | null;
  open: (d: DialogState) => void;
  close: () => void;
}

export const useDialog = create<DialogStore>()((set) => ({
  dialog: null,
  open: (dialog) => set({ dialog }),
  close: () => set({ dialog: null }),
}));
