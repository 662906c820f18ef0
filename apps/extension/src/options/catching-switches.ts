/**
 * The options page's two switches of catching (lib/catching.ts). Turning one on asks the browser for site access (and
 * the downloads API for .torrent files) straight from the click, as the browser's prompt requires; refused, the switch
 * goes back off and says so.
 */
import { isCatching, setCatching, type CatchKind } from '../lib/catching';
import { byId, say } from '../lib/dom';
import { t } from '../lib/i18n';
import { onStoredChange } from '../lib/storage';

const SWITCHES: Record<CatchKind, string> = { magnets: 'catch-magnets', torrents: 'catch-torrents' };

async function showSwitches(): Promise<void> {
  for (const [kind, id] of Object.entries(SWITCHES) as [CatchKind, string][]) byId<HTMLInputElement>(id).checked = await isCatching(kind);
}

export function startCatchingSwitches(): void {
  for (const [kind, id] of Object.entries(SWITCHES) as [CatchKind, string][]) {
    const box = byId<HTMLInputElement>(id);
    box.addEventListener('change', () => {
      const wanted = box.checked;
      // Called before anything else is awaited: the permission prompt needs the click.
      void setCatching(kind, wanted)
        .then((on) => {
          box.checked = on;
          say(byId('catching-status'), wanted && !on ? t('accessRefused') : '', wanted && !on ? 'error' : 'plain');
        })
        .catch((err: unknown) => {
          box.checked = false;
          say(byId('catching-status'), err instanceof Error ? err.message : String(err), 'error');
        });
    });
  }
  onStoredChange(['catching'], () => void showSwitches());
  chrome.permissions.onRemoved.addListener(() => void showSwitches());
  void showSwitches();
}
