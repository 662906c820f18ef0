/**
 * The toolbar popup: a paste box for one or several links, the folder they go into, and the latest cloud downloads
 * with their progress, speed and result, polled while the popup is open.
 */
import { hostOf } from '../lib/address';
import { isFinished, latestCloudTasks } from '../lib/cloud-tasks';
import { byId, say } from '../lib/dom';
import { currentConnection, type Connection } from '../lib/haul-client';
import { pastedLines } from '../lib/links';
import { sendLinks } from '../lib/send-links';
import { onStoredChange, readStored, TOP_FOLDER } from '../lib/storage';
import { describeFailure, NOT_CONNECTED, SIGNED_OUT } from '../lib/words';
import { renderTasks } from './task-list';

/** Poll fast while something moves, slowly once everything listed has ended. */
const POLL_MOVING_MS = 1000;
const POLL_IDLE_MS = 4000;

let polling: ReturnType<typeof setTimeout> | undefined;

async function poll(conn: Extract<Connection, { state: 'signed-in' }>): Promise<void> {
  let moving = false;
  try {
    const tasks = await latestCloudTasks(conn.client);
    renderTasks(byId<HTMLUListElement>('tasks'), tasks, conn.server);
    say(byId('tasks-note'), tasks.length ? '' : 'No cloud downloads yet.');
    moving = tasks.some((t) => !isFinished(t));
  } catch (err) {
    say(byId('tasks-note'), describeFailure(err, conn.server), 'error');
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
    say(byId('away-text'), conn.state === 'none' ? NOT_CONNECTED : SIGNED_OUT);
    return;
  }
  byId('folder-name').textContent = ((await readStored('folder')) ?? TOP_FOLDER).name;
  await poll(conn);
}

async function add(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const box = byId<HTMLTextAreaElement>('links');
  const button = byId<HTMLButtonElement>('add');
  const { links, bad } = pastedLines(box.value);
  button.disabled = true;
  try {
    const result = await sendLinks([...links, ...bad]);
    say(byId('add-result'), result.message, result.ok ? 'ok' : 'error');
    // What was added leaves the box; lines that were not links stay, to be put right.
    if (result.ok) box.value = bad.join('\n');
    const conn = await currentConnection();
    if (result.ok && conn.state === 'signed-in') {
      clearTimeout(polling);
      await poll(conn);
    }
  } finally {
    button.disabled = false;
  }
}

byId('add-form').addEventListener('submit', (e) => void add(e));
byId('open-options').addEventListener('click', () => void chrome.runtime.openOptionsPage());
byId('change-folder').addEventListener('click', (e) => {
  e.preventDefault();
  void chrome.runtime.openOptionsPage();
});
onStoredChange(['server', 'session', 'folder'], () => void show());
// Opening the popup is seeing what the badge wanted to say.
void chrome.action.setBadgeText({ text: '' });
void show();
