/**
 * The options page, also the first-run (welcome) page: connect to a Haul by its address with device sign-in (the code
 * shown here is approved on Haul's approval page), see which account is connected, sign out, choose the folder cloud
 * downloads go into, and turn catching on or off. Opened as the welcome page, it frames the Haul's landing page once
 * the address is known (the server lets only extension origins frame that page).
 */
import { haulOrigin, hostOf } from '../lib/address';
import { connect, signInFailure, signOut } from '../lib/connect';
import { byId, say } from '../lib/dom';
import { currentConnection } from '../lib/haul-client';
import { localizePage, t } from '../lib/i18n';
import { onStoredChange, readStored } from '../lib/storage';
import { describeFailure, signedOutWords } from '../lib/words';
import { startCatchingSwitches } from './catching-switches';
import { startFolderPicker } from './folder-picker';

let waiting: AbortController | null = null;

/** An address that answered as a Haul (it gave a sign-in code), before the sign-in is approved. */
let answered = '';

/** The welcome page (first run): the Haul's landing page, framed, once an address answered as a Haul. */
async function showWelcome(): Promise<void> {
  if (location.hash !== '#welcome') return;
  const stored = await readStored('server');
  const server = stored && (stored === answered || (await readStored('session'))) ? stored : '';
  byId('welcome-section').hidden = !server;
  const frame = byId<HTMLIFrameElement>('landing');
  const src = server ? `${server}/drive/landing` : '';
  if (server && frame.getAttribute('src') !== src) frame.src = src;
}

function showConnect(address: string, error = ''): void {
  byId('connect-section').hidden = false;
  byId('account-section').hidden = true;
  byId('waiting').hidden = true;
  byId('connect-form').hidden = false;
  const input = byId<HTMLInputElement>('address');
  if (!input.value) input.value = address;
  say(byId('connect-error'), error, 'error');
}

async function showAccount(): Promise<void> {
  const conn = await currentConnection();
  if (conn.state !== 'signed-in') return showConnect(conn.state === 'none' ? '' : conn.server);
  byId('connect-section').hidden = true;
  byId('account-section').hidden = false;
  say(byId('account-status'), '');
  try {
    const me = await conn.client.call('getMe');
    byId('connected-as').textContent = t('connectedAs', { host: hostOf(conn.server), email: me.email });
    await startFolderPicker(conn.client, conn.server);
  } catch (err) {
    const words = describeFailure(err, conn.server);
    if (words === signedOutWords()) return showConnect(conn.server, words);
    byId('connected-as').textContent = t('connectedTo', { host: hostOf(conn.server) });
    say(byId('account-status'), words, 'error');
  }
}

async function startConnecting(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const typed = byId<HTMLInputElement>('address').value;
  const button = byId<HTMLButtonElement>('connect');
  say(byId('connect-error'), '');
  button.disabled = true;
  waiting = new AbortController();
  try {
    await connect(typed, {
      signal: waiting.signal,
      onCode: ({ userCode, approveUrl }) => {
        answered = new URL(approveUrl).origin;
        void showWelcome();
        byId('connect-form').hidden = true;
        byId('waiting').hidden = false;
        byId('user-code').textContent = userCode;
        byId<HTMLAnchorElement>('approve-link').href = approveUrl;
      },
    });
    await showAccount();
  } catch (err) {
    if (waiting.signal.aborted) return showConnect(typed);
    showConnect(typed, signInFailure(err) ?? describeFailure(err, haulOrigin(typed) ?? typed));
  } finally {
    button.disabled = false;
    waiting = null;
  }
}

async function endSession(): Promise<void> {
  const button = byId<HTMLButtonElement>('sign-out');
  button.disabled = true;
  const conn = await currentConnection();
  const told = await signOut();
  button.disabled = false;
  showConnect(conn.state === 'none' ? '' : conn.server);
  say(
    byId('connect-error'),
    told ? '' : t('signOutUntold'),
    'error',
  );
}

localizePage();
byId('connect-form').addEventListener('submit', (e) => void startConnecting(e));
byId('cancel').addEventListener('click', () => waiting?.abort());
byId('sign-out').addEventListener('click', () => void endSession());
startCatchingSwitches();
onStoredChange(['server', 'session'], () => void showWelcome());
void showAccount();
void showWelcome();
