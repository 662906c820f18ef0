/** An item's details (name, place, type, size, times, hash, where it came from), opened through the dialog store. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { formatSize } from '@haul/shared/plain';
import { Frame } from '../../app/dialogs/dialog-frame';
import { useDialog, type DialogState } from '../../app/dialogs/dialog-store';
import { Icon } from '../../components/icon';
import { PlatformIcon, platformName } from '../search/platform-icon';
import { copyText } from '../shares/share-format';
import { isFolder } from './files-api';
import { formatTime } from './format-time';
import { LocationPath } from './item-location';

/** The details of `d.file`, with its source link (a cloud download's) to copy. */
export function DetailsDialog({ d }: { d: Extract<DialogState, { type: 'details' }> }) {
  const { t, i18n } = useTranslation();
  const close = useDialog((s) => s.close);
  const f = d.file;
  // A cloud download keeps the link it came from; shown as text to copy, never as a link to follow from here.
  const source = f.params?.url ?? '';
  const copySource = async () => {
    if (await copyText(source)) toast.success(t('files.sourceCopied'));
    else toast.error(t('share.copyFailed'));
  };
  const rows: [string, ReactNode][] = [
    [t('files.name'), f.name],
    [t('files.location'), <LocationPath file={f} onGo={close} />],
    [t('files.type'), isFolder(f) ? t('files.folder') : f.mime_type || f.file_extension || '-'],
    ...(isFolder(f) ? [] : ([[t('files.size'), formatSize(f.size, 1, i18n.language)]] as [string, string][])),
    [t('files.created'), formatTime(f.created_time, i18n.language)],
    [t('files.modified'), formatTime(f.modified_time, i18n.language)],
    ...(f.hash ? ([[t('files.hash'), f.hash]] as [string, string][]) : []),
  ];
  // Where it came from (params.platform, with its tag icon): an upload, a share, a site, a torrent, an archive.
  const platform = f.params?.platform;
  if (platform)
    rows.push([
      t('search.platformLabel'),
      <span className="platform-badge" data-testid="details-platform">
        <PlatformIcon platform={platform} />
        {platformName(t, platform, 'file')}
      </span>,
    ]);
  if (source)
    rows.push([
      t('files.source'),
      <span className="details-source">
        <span data-testid="details-source">{source}</span>
        <button
          className="icon-btn"
          type="button"
          aria-label={t('files.copySource')}
          title={t('files.copySource')}
          onClick={() => void copySource()}
        >
          <Icon name="copy" size={18} />
        </button>
      </span>,
    ]);
  return (
    <Frame title={t('actions.details')}>
      <dl className="details">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </Frame>
  );
}
