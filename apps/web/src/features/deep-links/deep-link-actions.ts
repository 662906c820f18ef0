/**
 * The one table of deep-link actions (seed 000 §2 "Action values"): what each opens. A handler runs once, after the
 * action and its parameters have left the address. Anything that adds, moves or changes waits for the person's click:
 * a link only ever opens a dialog or a screen.
 */
import i18next, { type TFunction } from 'i18next';
import { toast } from 'sonner';
import type { Breadcrumb, DriveFile } from '@haul/shared';
import { useDialog } from '../../app/dialogs/dialog-store';
import { changeLocale } from '../../lib/i18n';
import { matchLocale } from '../../lib/locale';
import { feedbackAddress } from '../feedback/feedback-address';
import { useGuide } from '../guide/guide-store';
import { getAncestors, isFolder } from '../files/files-api';
import { openMobileSidebar } from '../layout/mobile-sidebar';
import { checkUrl, torrentFileOf } from '../offline/offline-api';
import { presetOpenWhenReady } from '../offline/open-when-ready';
import { usePremiumTransform } from '../plans/premium-transform-store';
import { useUploads } from '../uploads/upload-store';
import { withPreview } from '../viewer/viewer-address';
import type { Action, DeepLink } from './deep-link-params';
import { filesOf, pointAtTask } from './deep-link-lookups';

export interface DeepLinkContext {
  navigate: (to: string, opts?: { replace?: boolean; state?: unknown }) => void;
  t: TFunction;
  /** The page the link opened, e.g. /all/abc. */
  pathname: string;
  /** Dialogs that live in their own hosts. */
  openRedeemBox: () => void;
  openInviteDialog: () => void;
}

type Handler = (link: DeepLink, c: DeepLinkContext) => void | Promise<void>;

/** The folder on screen as a path from the top (the cloud download's target); the top level elsewhere. */
async function folderPathOf(pathname: string): Promise<Breadcrumb[]> {
  const [, view, id] = pathname.split('/');
  if (view !== 'all' || !id) return [];
  return getAncestors(id).catch(() => []);
}

/** A .torrent link's file, read through the URL checker; null (with a toast) when it cannot be read as a torrent. */
async function torrentOf(url: string | undefined): Promise<File | null> {
  if (!url) return null;
  const file = await checkUrl(url).then(torrentFileOf, () => null);
  if (!file) toast.error(i18next.t('urlChecker.torrentLinkFailed'));
  return file;
}

/** A file's folder in the drive, as an address. */
const folderOf = (f: DriveFile) => (f.parent_id ? `/all/${f.parent_id}` : '/all');

/** Looks the named files up; says so when some are not the person's. Answers the ones found. */
async function found(link: DeepLink, c: DeepLinkContext): Promise<DriveFile[]> {
  const { files, missing } = await filesOf(link.fileIds);
  if (missing > 0 || files.length === 0) toast.error(c.t('deepLinks.notFound'));
  return files;
}

/** Goes to a screen in place of the deep link's address (Back does not return to the link). */
const goTo =
  (to: string): Handler =>
  (_, c) =>
    c.navigate(to, { replace: true });

/** Nothing to do: the feature does not exist here, or the action needs nothing more once signed in. */
const nothing: Handler = () => undefined;

export const HANDLERS: Record<Exclude<Action, 'search'>, Handler> = {
  create_task: async (link, c) => {
    // The dialog validates on submit, so a bad link shows its own error there; nothing is added without a click.
    if (link.speedSave) presetOpenWhenReady(true);
    const [path, torrent] = await Promise.all([folderPathOf(c.pathname), torrentOf(link.torrentFileUrls[0])]);
    // A .torrent link that could not be read goes in as a link, as do any beyond the first (the dialog takes one file).
    const asLinks = link.torrentFileUrls.slice(torrent ? 1 : 0);
    useDialog.getState().open({ type: 'cloud-download', path, text: [...link.links, ...asLinks].join('\n'), torrentFile: torrent ?? undefined });
  },
  open_file: async (link, c) => {
    const [file] = await found(link, c);
    if (!file) return;
    // A folder opens as the folder; a file in the viewer among its folder's files (the viewer reads ?preview=).
    if (isFolder(file)) return c.navigate(`/all/${file.id}`, { replace: true });
    c.navigate(folderOf(file) + withPreview('', file.id), { replace: true });
  },
  highlight_files: async (link, c) => {
    const files = await found(link, c);
    if (!files.length) return;
    // One folder is shown: the first file's, with every named file that is in it.
    const parent = files[0]!.parent_id;
    c.navigate(folderOf(files[0]!), { replace: true, state: { highlight: files.filter((f) => f.parent_id === parent).map((f) => f.id) } });
  },
  move_files: async (link, c) => {
    const files = await found(link, c);
    if (files.length) useDialog.getState().open({ type: 'pick-folder', mode: 'move', files });
  },
  show_task: async (link, c) => {
    useUploads.setState({ panelOpen: true, tab: 'cloud' });
    if (link.taskId && !(await pointAtTask(link.taskId))) toast.error(c.t('deepLinks.taskNotFound'));
  },
  // The closest screens to the seed's dialogs (docs/decisions/deep-links.md): a limit dialog says something ran out,
  // which a link cannot know, so these open the pages that show the usage and offer more.
  show_storage_dialog: goTo('/space-management'),
  show_traffic_dialog: goTo('/traffic-management'),
  show_mobile_sidebar: () => void openMobileSidebar(),
  required_set_password: goTo('/account/password'),
  bind_provider: goTo('/account/providers'),
  // Seed 001's premium-transform dialog: the plan now, what premium changes, and the way to pay.
  show_premium_transform_dialog: () => usePremiumTransform.getState().set(true),
  open_redeem_box: (_, c) => c.openRedeemBox(),
  show_invite_dialog: (_, c) => c.openInviteDialog(),
  show_activity_dialog: (_, c) => c.openInviteDialog(),
  // Signed in already (the drive's routes sent anyone else to sign in first).
  login_required: nothing,
  // A window of the desktop app's; the browser has the page itself.
  show_popup_window: nothing,
  // The guide itself starts on the all-files screen, where what it shows is.
  show_beginner_dialog: (_, c) => {
    useGuide.getState().show();
    c.navigate('/all', { replace: true });
  },
  // The feedback page, about the page the link opened.
  open_feedback: (_, c) => c.navigate(feedbackAddress(c.pathname), { replace: true }),
};

/** Switches the interface language, as the language menu does; a language this app lacks is ignored. */
export async function applyLocale(tag: string | null): Promise<void> {
  const lng = tag ? matchLocale(tag.replace('_', '-')) : null;
  if (lng) await changeLocale(lng);
}
