/** The files of a torrent with a check box each, so the person keeps only what they want. */
import { useTranslation } from 'react-i18next';
import { formatSize } from '@haul/shared/plain';
import type { TorrentListing } from './offline-api';

export function TorrentFiles({
  listing,
  chosen,
  onChange,
}: {
  listing: TorrentListing;
  chosen: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
}) {
  const { t, i18n } = useTranslation();
  const all = chosen.size === listing.files.length;
  const size = listing.files.filter((f) => chosen.has(f.index)).reduce((n, f) => n + Number(f.size), 0);
  const toggle = (index: number) => {
    const next = new Set(chosen);
    if (!next.delete(index)) next.add(index);
    onChange(next);
  };
  return (
    <fieldset className="torrent-files">
      <legend>
        <strong title={listing.name}>{listing.name}</strong>{' '}
        <span className="muted">
          {t('cloud.chosen', { n: chosen.size, total: listing.files.length, size: formatSize(size, 1, i18n.language) })}
        </span>
      </legend>
      <label className="check-field">
        <input type="checkbox" checked={all} onChange={() => onChange(all ? new Set() : new Set(listing.files.map((f) => f.index)))} />
        {t('cloud.allFiles')}
      </label>
      <ul>
        {listing.files.map((f) => (
          <li key={f.index}>
            <label className="check-field">
              <input type="checkbox" checked={chosen.has(f.index)} onChange={() => toggle(f.index)} />
              <span className="fname" title={f.path}>
                {f.path}
              </span>
              <small className="muted">{formatSize(f.size, 1, i18n.language)}</small>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
