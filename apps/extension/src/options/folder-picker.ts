/**
 * Choosing the folder cloud downloads go into: walk down from the top of the drive, one folder level at a time, and
 * keep the one chosen (chrome.storage.local), which the context menu and the popup both use.
 */
import type { HaulClient } from '@haul/client';
import { FOLDER_KIND } from '@haul/shared/plain';
import { byId, say } from '../lib/dom';
import { t } from '../lib/i18n';
import { folderName, readStored, TOP_FOLDER, writeStored, type Folder } from '../lib/storage';
import { describeFailure } from '../lib/words';

/** Enough folders for a level; a drive with more is better browsed in Haul itself. */
const LEVEL_MAX = 500;

async function foldersIn(client: HaulClient, parentId: string): Promise<Folder[]> {
  const filters = JSON.stringify({ kind: { eq: FOLDER_KIND }, trashed: { eq: false } });
  const page = await client.call('listFiles', { query: { parent_id: parentId, limit: LEVEL_MAX, filters, order: 'NAME_ASC' } });
  return page.files.map((f) => ({ id: f.id, name: f.name }));
}

/** Wires the picker of the options page to the drive of `client` on `server`. */
export async function startFolderPicker(client: HaulClient, server: string): Promise<void> {
  const trail: Folder[] = [TOP_FOLDER];
  const status = byId('account-status');
  const here = () => trail[trail.length - 1]!;
  // A level that answers after a newer one was asked for shows nothing; one that answers after the person chose a
  // folder (or asked for another level) says nothing over what was said since.
  let asked = 0;
  let said = 0;

  const open = async () => {
    const mine = ++asked;
    const speak = ++said;
    byId('picker-at').textContent = folderName(here());
    byId<HTMLButtonElement>('picker-up').disabled = trail.length === 1;
    const list = byId<HTMLUListElement>('picker-folders');
    try {
      const folders = await foldersIn(client, here().id);
      if (mine !== asked) return;
      list.replaceChildren(
        ...folders.map((f) => {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = f.name;
          button.addEventListener('click', () => {
            trail.push(f);
            void open();
          });
          const li = document.createElement('li');
          li.append(button);
          return li;
        }),
      );
      if (speak !== said) return;
      if (!folders.length) say(status, t('noFolders', { folder: folderName(here()) }));
      else say(status, '');
    } catch (err) {
      if (speak === said) say(status, describeFailure(err, server), 'error');
    }
  };

  byId('picker-up').addEventListener('click', () => {
    if (trail.length > 1) trail.pop();
    void open();
  });
  byId('picker-use').addEventListener('click', () => {
    const chosen = here();
    const speak = ++said;
    void writeStored({ folder: chosen }).then(() => {
      byId('folder-current').textContent = folderName(chosen);
      if (speak === said) say(status, t('folderChosen', { folder: folderName(chosen) }), 'ok');
    });
  });
  byId('folder-current').textContent = folderName((await readStored('folder')) ?? TOP_FOLDER);
  await open();
}
