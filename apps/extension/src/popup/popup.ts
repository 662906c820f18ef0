/**
 * The toolbar popup: a paste box for one or several links with a preview of what will be added (a single torrent's
 * files to pick from), the folder they go into, and the latest cloud downloads with their progress, speed and
 * result, polled while the popup is open. Failures are said in words, a limit with a link to the drive's dialog.
 */
import { hostOf } from '../lib/address';
import { isFinished, latestCloudTasks } from '../lib/cloud-tasks';
import { byId, say } from '../lib/dom';
import { currentConnection, type Connection } from '../lib/haul-client';
import { localizePage, t } from '../lib/i18n';
import { pastedLines } from '../lib/links';
import { keepLinks } from '../lib/keep-links';
import { send, type SendResult } from '../lib/send-links';
import { folderName, onStoredChange, readStored, TOP_FOLDER } from '../lib/storage';
import { nameOfLink } from '../lib/torrent-file';
import { describeFailure, limitLinkOf, notConnectedWords, signedOutWords, type LimitLink } from '../lib/words';
import { startPreview, type PreviewView } from './preview-view';
import { renderTasks } from './task-list';

/** Poll fast while something moves, slowly once everything listed has ended. */
const POLL_MOVING_MS = 1000;
const POLL_IDLE_MS = 4000;

type SignedIn = Extract<Connection, { state: 'signed-in' }>;
let polling: ReturnType<typeof setTimeout> | undefined;
let preview: PreviewView | null = null;

/** A limit's link under a message, or none. */
function showLimit(id: string, limit: LimitLink | null | undefined): void {
  const link = byId<HTMLAnchorElement>(id);
  link.hidden = !limit;
  if (!limit) return;
  link.href = limit.href;
  link.textContent = limit.label;
}

async function poll(conn: SignedIn): Promise<void> {
  let moving = false;
  try {
    const tasks = await latestCloudTasks(conn.client);
    renderTasks(byId<HTMLUListElement>('tasks'), tasks, conn.server);
    say(byId('tasks-note'), tasks.length ? '' : t('noTasks'));
    showLimit('tasks-limit', null);
    moving = tasks.some((task) => !isFinished(task));
  } catch (err) {
    say(byId('tasks-note'), describeFailure(err, conn.server), 'error');
    showLimit('tasks-limit', limitLinkOf(err, conn.server));
  }
  // Signed out meanwhile (the server ended the session): the storage listener shows that instead.
  if ((await currentConnection()).state === 'signed-in') polling = setTimeout(() => void poll(conn), moving ? POLL_MOVING_MS : POLL_IDLE_MS);
}

async function show(): Promise<void> {
  clearTimeout(polling);
  const conn = await currentConnection();
  byId('away').hidden = conn.state === 'signed-in';
  byId('here').hidden = conn.state !== 'signed-in';
  byId('account').textContent = conn.state === 'none' ? '' : hostOf(conn.server);
  if (conn.state !== 'signed-in') {
    say(byId('away-text'), conn.state === 'none' ? notConnectedWords() : signedOutWords());
    return;
  }
  byId('folder-name').textContent = folderName((await readStored('folder')) ?? TOP_FOLDER);
  preview ??= startPreview(byId<HTMLTextAreaElement>('links'), byId('preview'), conn.client, conn.server);
  await poll(conn);
}

/** Sends what the box holds: the torrent read in the preview (with the files picked), or the links as they are. */
async function sendBox(box: HTMLTextAreaElement): Promise<{ result: SendResult; bad: string[] }> {
  const { links, bad } = pastedLines(box.value);
  preview?.refresh();
  const picked = preview?.current();
  if (picked?.noneChosen) return { result: { ok: false, tasks: [], message: t('chooseAFile') }, bad };
  if (picked?.torrent?.base64) {
    const { link, base64 } = picked.torrent;
    return { result: await send({ torrent: { base64, name: nameOfLink(link) }, fileIds: picked.fileIds }), bad };
  }
  return { result: await send({ links: [...links, ...bad], fileIds: picked?.fileIds }), bad };
}

async function add(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const box = byId<HTMLTextAreaElement>('links');
  const button = byId<HTMLButtonElement>('add');
  button.disabled = true;
  try {
    const { result, bad } = await sendBox(box);
    say(byId('add-result'), result.message, result.ok ? 'ok' : 'error');
    showLimit('add-limit', result.limit);
    // What was added leaves the box; lines that were not links stay, to be put right.
    if (result.ok) {
      box.value = bad.join('\n');
      preview?.refresh();
    }
    const conn = await currentConnection();
    if (result.ok && conn.state === 'signed-in') {
      clearTimeout(polling);
      await poll(conn);
    }
  } finally {
    button.disabled = false;
  }
}

/** Keeps the box's links as bookmarks, fetched later from the drive; lines that were not links stay, to be put right. */
async function keep(): Promise<void> {
  const box = byId<HTMLTextAreaElement>('links');
  const button = byId<HTMLButtonElement>('keep');
  const { links, bad } = pastedLines(box.value);
  button.disabled = true;
  try {
    const result = await keepLinks(links);
    say(byId('add-result'), result.message, result.ok ? 'ok' : 'error');
    showLimit('add-limit', null);
    if (result.ok) {
      box.value = bad.join('\n');
      preview?.refresh();
    }
  } finally {
    button.disabled = false;
  }
}

/** Links of the popup open in a tab: the popup's own navigation would close it. */
function opensTab(id: string): void {
  byId<HTMLAnchorElement>(id).addEventListener('click', (e) => {
    e.preventDefault();
    void chrome.tabs.create({ url: (e.currentTarget as HTMLAnchorElement).href });
  });
}

localizePage();
byId('add-form').addEventListener('submit', (e) => void add(e));
byId('keep').addEventListener('click', () => void keep());
byId('open-options').addEventListener('click', () => void chrome.runtime.openOptionsPage());
byId('change-folder').addEventListener('click', (e) => {
  e.preventDefault();
  void chrome.runtime.openOptionsPage();
});
opensTab('add-limit');
opensTab('tasks-limit');
onStoredChange(['server', 'session', 'folder'], () => void show());
// Opening the popup is seeing what the badge wanted to say.
void chrome.action.setBadgeText({ text: '' });
void show();
