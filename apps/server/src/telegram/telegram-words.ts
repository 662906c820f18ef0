/**
 * What the bot says. English for now: Telegram tells a message's language, but the server keeps no translations of
 * its own (the web app holds them), so the bot speaks the language of the server's other messages.
 */
import { PHASE, parseLimitDetails } from '@haul/shared';
import type { HttpError } from '../http/errors.js';

/** The payment page's `refer_from` for each limit (as the web app's limit dialog's Upgrade). */
const REFER_FROM: Record<string, string> = {
  task_daily_create_limit: 'task_limit',
  monthly_cloud_download_size_exceeded: 'cloud_download',
  file_space_not_enough: 'storage',
  file_size_too_large: 'task_size',
};

export const pageUrl = (publicUrl: string) => `${publicUrl}/drive/bot/tg-management`;
export const openFileUrl = (publicUrl: string, fileId: string) => `${publicUrl}/drive/all?action=open_file&file_ids=${encodeURIComponent(fileId)}`;
export const upgradeUrl = (publicUrl: string, error: string) => `${publicUrl}/drive/payment?refer_from=${REFER_FROM[error] ?? 'cloud_download'}`;

const folderWords = (name: string) => (name ? `“${name}”` : 'the top of your drive');

export const WORDS = {
  notLinked: (publicUrl: string) =>
    `This Telegram account is not linked to Haul yet. Open ${pageUrl(publicUrl)}, choose “Link Telegram” and send me the code (or tap its link).`,
  badCode: (publicUrl: string) => `That link code is unknown, used or expired. Make a new one at ${pageUrl(publicUrl)}.`,
  linked: (folder: string) =>
    `Linked to Haul. Send me a link, several links, a magnet link or a .torrent file and I will download it into ${folderWords(folder)}.\n\n/tasks — your latest cloud downloads\n/folder — where they land\n/unlink — unlink this Telegram account`,
  help: (folder: string) =>
    `Send me a link, several links (one message), a magnet link or a .torrent file: I add it as a cloud download into ${folderWords(folder)} and tell you when it is done.\n\n/tasks — your latest cloud downloads\n/folder — where they land (/folder Films/New to choose a folder by its path, /folder / for the top)\n/unlink — unlink this Telegram account`,
  privateOnly: 'I take downloads in a private chat only.',
  noLink: 'I found no link in that. Send http, https or magnet links, or a .torrent file.',
  notTorrent: 'I take .torrent files only; for another file, send me a link to it.',
  added: (names: string[], folder: string) =>
    `Added ${names.length === 1 ? 'a cloud download' : `${names.length} cloud downloads`} into ${folderWords(folder)}:\n${names.map((n) => `• ${n}`).join('\n')}\nI will tell you when ${names.length === 1 ? 'it is' : 'each is'} done.`,
  failed: (why: string) => `Not added: ${why}`,
  limit: (title: string, upgrade: string) => `Not added: ${title}\nUpgrade: ${upgrade}`,
  trouble: 'Something went wrong on the server; please try again in a moment.',
  folder: (folder: string, publicUrl: string) =>
    `New downloads land in ${folderWords(folder)}. Choose another with /folder followed by its path (/folder / for the top), or at ${pageUrl(publicUrl)}.`,
  noSuchFolder: (path: string) => `You have no folder “${path}” (outside the trash).`,
  unlinked: 'Unlinked: I no longer take anything from this Telegram account. Downloads already added go on.',
  noTasks: 'You have no cloud downloads yet.',
  tasks: (lines: string[]) => `Your latest cloud downloads:\n${lines.join('\n')}`,
  done: (name: string, url: string) => `Done: ${name}\nOpen it in Haul: ${url}`,
  taskFailed: (name: string, why: string) => `Failed: ${name}${why ? `\n${why}` : ''}`,
} as const;

const PHASE_WORDS: Record<string, string> = {
  [PHASE.PENDING]: 'waiting',
  [PHASE.RUNNING]: 'downloading',
  [PHASE.PAUSED]: 'paused',
  [PHASE.ERROR]: 'failed',
  [PHASE.COMPLETE]: 'done',
};

export function taskLine(t: { name: string; phase: string; progress: number }): string {
  const state = PHASE_WORDS[t.phase] ?? 'waiting';
  return `• ${t.name} — ${state}${t.phase === PHASE.RUNNING ? ` ${Math.floor(t.progress)}%` : ''}`;
}

/** The words of a refusal: a limit's title and its Upgrade link, else the error's own message. */
export function refusal(err: HttpError, publicUrl: string): string {
  const details = parseLimitDetails(err.message);
  if (details) return WORDS.limit(details.title, upgradeUrl(publicUrl, err.error));
  if (err.error === 'file_size_too_large') return WORDS.limit(err.message, upgradeUrl(publicUrl, err.error));
  return WORDS.failed(err.message);
}
