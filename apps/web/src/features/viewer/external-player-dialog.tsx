/**
 * Open in a player on this computer (seed 001 §2): PotPlayer through its link scheme, any other player from the
 * copied link. Both copy the link (it expires like a download link); "Other" then says it is ready to paste. Or
 * Haul's own player: a separate browser window showing only the player, on the same file among the same list.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { DialogState } from '../../app/dialogs/dialog-store';
import { Frame } from '../../app/dialogs/dialog-frame';
import { copyText } from '../shares/share-format';
import { useDialog } from '../../app/dialogs/dialog-store';
import { playerWindowAddress } from './viewer-address';
import { videoLinkOf } from './copy-video-link';

/** The link an outside player can stream: the original bytes, served with Range. */
export const externalLink = (d: Extract<DialogState, { type: 'external-player' }>) => videoLinkOf(d.file);

export function ExternalPlayerDialog({ d }: { d: Extract<DialogState, { type: 'external-player' }> }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const link = externalLink(d);
  const choose = async (player: 'potplayer' | 'other') => {
    if (!(await copyText(link))) return toast.error(t('share.copyFailed'));
    if (player === 'potplayer') window.location.href = `potplayer://${link}`;
    else setCopied(true);
  };
  return (
    <Frame title={t('viewer.externalPlayer')}>
      {copied ? (
        <p role="status">{t('viewer.linkCopied')}</p>
      ) : (
        <div className="player-choices">
          <button
            className="btn"
            onClick={() => {
              window.open(
                playerWindowAddress(window.location.pathname, window.location.search, d.file.id),
                'haul-player',
                'popup,width=960,height=600',
              );
              useDialog.getState().close();
            }}
          >
            {t('viewer.playerWindow')}
          </button>
          <button className="btn" onClick={() => void choose('potplayer')}>
            PotPlayer
          </button>
          <button className="btn" onClick={() => void choose('other')}>
            {t('viewer.otherPlayer')}
          </button>
        </div>
      )}
      <div className="dialog-actions">
        <Dialog.Close className="btn" type="button">
          {t('common.close')}
        </Dialog.Close>
      </div>
    </Frame>
  );
}
