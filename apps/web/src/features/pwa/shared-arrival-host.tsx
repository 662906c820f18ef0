/**
 * What the installed app was handed opens the cloud download dialog, filled: a share (the share target's stash named
 * by `?shared=`, links from its url, text and title, and a .torrent file) and a .torrent file the system opened with
 * Haul. Nothing is added until the person confirms in the dialog, which checks what came like anything typed or picked.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useDialog } from '../../app/dialogs/dialog-store';
import { consumeLaunchedFiles } from './launch-queue';
import { takeArrival } from './share-stash';
import { sharedLinks } from './shared-links';

/** Stashes being read: a second mount (React's strict mode) must not take the same one again. */
const taking = new Set<string>();

const openCloudDownload = (text: string, torrentFile?: File) =>
  useDialog.getState().open({ type: 'cloud-download', path: [], text, torrentFile });

export function SharedArrivalHost() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const key = params.get('shared');

  useEffect(() => {
    if (!key) return;
    // The address names a stash that is read once: it leaves the address (and the history entry) now. An `action`
    // beside it goes too: an arrival is this host's alone.
    const rest = new URLSearchParams(params);
    rest.delete('shared');
    rest.delete('action');
    setParams(rest, { replace: true });
    if (taking.has(key)) return;
    taking.add(key);
    void takeArrival(key)
      .then((arrival) => {
        if (!arrival) return void toast.error(t('pwa.sharedGone'));
        const links = sharedLinks(arrival.url, arrival.text, arrival.title);
        if (!links.length && !arrival.file) return void toast.error(t('pwa.nothingShared'));
        openCloudDownload(links.join('\n'), arrival.file ?? undefined);
      })
      .catch(() => toast.error(t('pwa.sharedGone')))
      .finally(() => taking.delete(key));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per key; `params` changes as it is cleaned
  }, [key]);

  useEffect(() => consumeLaunchedFiles((file) => openCloudDownload('', file)), []);
  return null;
}
