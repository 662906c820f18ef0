/**
 * The one viewer: a list of files, the one shown, and where it was opened (seed 001 §2, §4). Opening needs a list
 * and an id; previous does nothing on the first file, next nothing on the last unless forced (then it wraps).
 */
import { create } from 'zustand';
import type { DriveFile } from '@haul/shared';
import type { ShareAccess } from '../shares/shares-api';
import { viewKindOf } from './view-kind';

export type Scene = 'cloud_page' | 'home_recent' | 'starred_file' | 'home_play_history' | 'share_page';

/** Where links come from: the signed-in drive, or a share link (nothing can be changed there). */
export type ViewerSource = { kind: 'drive' } | { kind: 'share'; access: ShareAccess };

interface ViewerState {
  files: DriveFile[];
  index: number;
  scene: Scene;
  source: ViewerSource;
  open: (files: DriveFile[], id: string, scene: Scene, source?: ViewerSource) => void;
  close: () => void;
  go: (delta: -1 | 1, force?: boolean) => void;
  show: (index: number) => void;
  /** The file changed (renamed, starred) or left (trashed): the list follows. */
  replace: (file: DriveFile) => void;
  remove: (id: string) => void;
}

/** Files the viewer can show: images, audio, video, text and PDF. */
export const previewable = (f: DriveFile) => f.kind === 'drive#file' && viewKindOf(f) !== null;

export const useViewer = create<ViewerState>()((set, get) => ({
  files: [],
  index: -1,
  scene: 'cloud_page',
  source: { kind: 'drive' },
  open: (all, id, scene, source = { kind: 'drive' }) => {
    const files = all.filter(previewable);
    const index = files.findIndex((f) => f.id === id);
    if (index >= 0) set({ files, index, scene, source });
  },
  close: () => set({ files: [], index: -1 }),
  go: (delta, force) => {
    const { index, files } = get();
    const next = index + delta;
    if (next >= 0 && next < files.length) set({ index: next });
    else if (force && files.length > 1) set({ index: (next + files.length) % files.length });
  },
  show: (index) => set({ index }),
  replace: (file) => set({ files: get().files.map((f) => (f.id === file.id ? { ...f, ...file } : f)) }),
  remove: (id) => {
    const { files, index } = get();
    const at = files.findIndex((f) => f.id === id);
    if (at < 0) return;
    const rest = files.filter((f) => f.id !== id);
    // An empty list closes the viewer.
    set(rest.length ? { files: rest, index: Math.min(at < index ? index - 1 : index, rest.length - 1) } : { files: [], index: -1 });
  },
}));

/** Opens the viewer on `file` within the list it was clicked in; false when the file is not previewable. */
export function openInViewer(list: DriveFile[], file: DriveFile, scene: Scene, source?: ViewerSource): boolean {
  if (!previewable(file)) return false;
  useViewer.getState().open(list.some((f) => f.id === file.id) ? list : [file], file.id, scene, source);
  return true;
}
