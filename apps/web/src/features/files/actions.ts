/**
 * File actions defined once (label, icon, shortcut, when shown, what they do) and used by the context menu, the
 * selection toolbar and the keyboard. Order follows the seeds' file context menu.
 */
import { canDecompress } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import i18n from 'i18next';
import { toast } from 'sonner';
import type { IconName } from '../../components/icon';
import { viewKindOf } from '../viewer/view-kind';
import { openInViewer, previewable, type Scene } from '../viewer/viewer-store';
import { useDialog } from '../../app/dialogs/dialog-store';
import { isFolder } from './files-api';
import { deleteForever, downloadFile, setStar, trashFiles, untrashFiles } from './file-mutations';
import { keepForLater } from '../bookmarks/bookmarks-api';
import { downloadZip } from './zip-download';

export type View = 'all' | 'star' | 'recent' | 'trash' | 'bookmarks' | 'shared' | 'search' | 'history';

export interface ActionContext {
  files: DriveFile[];
  /** The list the files were picked from: the viewer pages through it. */
  siblings?: DriveFile[];
  view: View;
  navigate: (to: string, opts?: { state?: unknown }) => void;
}

export interface FileAction {
  id: string;
  labelKey: string;
  icon?: IconName;
  /** KeyboardEvent.key that runs it while the list has focus. */
  shortcut?: string;
  danger?: boolean;
  visible: (c: ActionContext) => boolean;
  perform: (c: ActionContext) => void | Promise<unknown>;
}

const one = (c: ActionContext) => c.files.length === 1;
const inTrash = (c: ActionContext) => c.view === 'trash';
const live = (c: ActionContext) => c.files.length > 0 && !inTrash(c);
const first = (c: ActionContext) => c.files[0]!;

/** Where a folder opens: inside the star view it stays in the star route. */
export const folderPath = (view: View, id: string) => `/${view === 'star' ? 'star' : 'all'}/${id}`;

const SCENES: Partial<Record<View, Scene>> = { recent: 'home_recent', star: 'starred_file', history: 'home_play_history' };

/** A folder opens; an archive shows its entries; an image, song or video opens in the viewer among its siblings; anything else downloads. */
export function openFile(c: ActionContext) {
  const f = first(c);
  if (isFolder(f)) c.navigate(folderPath(c.view, f.id));
  else if (canDecompress(f.name)) c.navigate(`/decompression/${f.id}`);
  else if (!openInViewer(c.siblings ?? c.files, f, SCENES[c.view] ?? 'cloud_page')) void downloadFile(f);
}

export const FILE_ACTIONS: FileAction[] = [
  { id: 'open', labelKey: 'actions.open', shortcut: 'Enter', visible: (c) => one(c) && !inTrash(c), perform: openFile },
  {
    // A search result's folder, opened with the result selected (the keyboard's way to the link in its row).
    id: 'locate',
    labelKey: 'actions.showInFolder',
    visible: (c) => one(c) && c.view === 'search',
    perform: (c) => c.navigate(first(c).parent_id ? `/all/${first(c).parent_id}` : '/all', { state: { highlight: first(c).id } }),
  },
  {
    id: 'share',
    labelKey: 'actions.share',
    icon: 'shared',
    // Sensitive files cannot be shared (share-files-has-sensitive-file): the server refuses them too.
    visible: (c) => live(c) && c.view !== 'shared',
    perform: (c) => {
      if (c.files.some((f) => f.sensitive === 1)) toast.error(i18n.t('share.hasSensitive'));
      else useDialog.getState().open({ type: 'share', files: c.files });
    },
  },
  {
    id: 'star',
    labelKey: 'actions.star',
    icon: 'star',
    visible: (c) => live(c) && c.files.some((f) => f.star !== 1),
    perform: (c) => setStar(c.files, true),
  },
  {
    id: 'unstar',
    labelKey: 'actions.unstar',
    icon: 'star',
    visible: (c) => live(c) && c.files.every((f) => f.star === 1),
    perform: (c) => setStar(c.files, false),
  },
  {
    id: 'details',
    labelKey: 'actions.details',
    visible: one,
    perform: (c) => useDialog.getState().open({ type: 'details', file: first(c) }),
  },
  {
    // Seed 000's "collect URL content": a cloud-downloaded file's link kept as a bookmark. Files with no known link
    // (uploaded, or from a .torrent file) do not offer it.
    id: 'collect',
    labelKey: 'bookmarksPage.collect',
    icon: 'bookmark',
    visible: (c) => one(c) && !inTrash(c) && !isFolder(first(c)) && /^(https?|magnet):/i.test(first(c).params?.url ?? ''),
    perform: (c) => keepForLater([{ url: first(c).params.url!, name: first(c).name }], 'file'),
  },
  {
    id: 'download',
    labelKey: 'actions.download',
    icon: 'download',
    visible: (c) => one(c) && !inTrash(c) && !isFolder(first(c)),
    perform: (c) => downloadFile(first(c)),
  },
  {
    // A folder, or more than one item: one zip, built as it downloads.
    id: 'download-zip',
    labelKey: 'zip.download',
    icon: 'download',
    visible: (c) => live(c) && (c.files.length > 1 || isFolder(first(c))),
    perform: (c) => downloadZip(c.files.map((f) => f.id)),
  },
  {
    id: 'move',
    labelKey: 'actions.move',
    visible: live,
    perform: (c) => useDialog.getState().open({ type: 'pick-folder', mode: 'move', files: c.files }),
  },
  {
    id: 'copy',
    labelKey: 'actions.copy',
    visible: live,
    perform: (c) => useDialog.getState().open({ type: 'pick-folder', mode: 'copy', files: c.files }),
  },
  {
    id: 'rename',
    labelKey: 'actions.rename',
    shortcut: 'F2',
    visible: (c) => one(c) && !inTrash(c),
    perform: (c) => useDialog.getState().open({ type: 'rename', file: first(c) }),
  },
  {
    id: 'trash',
    labelKey: 'actions.trash',
    icon: 'trash',
    shortcut: 'Delete',
    danger: true,
    visible: live,
    perform: (c) => trashFiles(c.files),
  },
  {
    id: 'restore',
    labelKey: 'actions.restore',
    icon: 'restore',
    visible: (c) => inTrash(c) && c.files.length > 0,
    perform: (c) => untrashFiles(c.files),
  },
  {
    id: 'delete-forever',
    labelKey: 'actions.deleteForever',
    shortcut: 'Delete',
    danger: true,
    visible: (c) => inTrash(c) && c.files.length > 0,
    perform: (c) =>
      useDialog.getState().open({
        type: 'confirm',
        title: i18n.t('trash.deleteForeverTitle', { count: c.files.length }),
        body: i18n.t('trash.deleteForeverBody'),
        confirmLabel: i18n.t('actions.deleteForever'),
        danger: true,
        onConfirm: () => deleteForever(c.files),
      }),
  },
];

export const visibleActions = (c: ActionContext) => FILE_ACTIONS.filter((a) => a.visible(c));

/** Opening shows the item in the app (a folder, an archive's entries, the viewer) rather than only downloading it. */
const opensInApp = (f: DriveFile) => isFolder(f) || canDecompress(f.name) || previewable(f);

/**
 * The selection bar's actions: the menu's, with Open only where opening shows something (Download covers the rest),
 * so a single click that selects still leaves opening one click away.
 */
export const barActions = (c: ActionContext) => visibleActions(c).filter((a) => a.id !== 'open' || opensInApp(first(c)));

/** An action's words for the selection: a song or a video is played. */
export function actionLabel(a: FileAction, c: ActionContext): string {
  const kind = a.id === 'open' && c.files.length === 1 && !isFolder(first(c)) ? viewKindOf(first(c)) : null;
  return kind === 'audio' || kind === 'video' ? 'actions.play' : a.labelKey;
}

/**
 * Seed 000 §2: the file context menu offers share and star only on a phone. On a desktop they stay on the selection
 * bar (and the viewer), one click away, and the menu keeps to the rest.
 */
const PHONE_MENU_ONLY = ['share', 'star', 'unstar'];

/** The actions of a file's context menu. */
export const menuActions = (c: ActionContext, mobile: boolean) => visibleActions(c).filter((a) => mobile || !PHONE_MENU_ONLY.includes(a.id));

/** The action a key press runs for the current selection, if any. */
export function actionForKey(key: string, c: ActionContext): FileAction | undefined {
  return FILE_ACTIONS.find((a) => a.shortcut === key && a.visible(c));
}
