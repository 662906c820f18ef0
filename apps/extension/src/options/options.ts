/**
 * The options page, opened on first run: connect to a Haul by its address with device sign-in (the code shown here is
 * approved on Haul's approval page), see which account is connected, sign out, and choose the folder cloud downloads
 * go into.
 */
import { haulOrigin, hostOf } from '../lib/address';
import { connect, signInFailure, signOut } from '../lib/connect';
import { byId, say } from '../lib/dom';
import { currentConnection } from '../lib/haul-client';
import { describeFailure, SIGNED_OUT } from '../lib/words';
import { startFolderPicker } from './folder-picker';

let waiting: AbortController | null = null;

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
    byId('connected-as').textContent = `Connected to ${hostOf(conn.server)} as ${me.email}.`;
    await startFolderPicker(conn.client, conn.server);
  } catch (err) {
    const words = describeFailure(err, conn.server);
    if (words === SIGNED_OUT) return showConnect(conn.server, words);
    byId('connected-as').textContent = `Connected to ${hostOf(conn.server)}.`;
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
    told ? '' : 'Signed out here, but Haul could not be reached to end the session: end it from Haul’s signed-in devices page.',
    'error',
  );
}

byId('connect-form').addEventListener('submit', (e) => void startConnecting(e));
byId('cancel').addEventListener('click', () => waiting?.abort());
byId('sign-out').addEventListener('click', () => void endSession());
void showAccount();
