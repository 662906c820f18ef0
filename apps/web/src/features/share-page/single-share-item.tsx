/**
 * A share of one file, shown as the file rather than a one-row table: a photo large, a video or song behind a play
 * button that opens the viewer, anything else as a card; with its name, size, Download and "Save to my drive".
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize, mediaTypeOf } from '@haul/shared/plain';
import type { DriveFile, MediaType, ShareView } from '@haul/shared';
import { iconFor } from '../files/file-item';
import { formatTime } from '../files/format-time';
import { Icon } from '../../components/icon';
import { viewerDetail } from '../viewer/viewer-api';
import type { ViewerSource } from '../viewer/viewer-store';

export interface SingleShareItemProps {
  view: ShareView;
  file: DriveFile;
  source: Extract<ViewerSource, { kind: 'share' }>;
  onOpen: () => void;
  onDownload: () => void;
  onSave: () => void;
  /** Opens the report dialog about this file. */
  onReport: () => void;
}

/** The one file of a share: a preview stage for media, a card for the rest. */
export function SingleShareItem({ view, file, source, onOpen, onDownload, onSave, onReport }: SingleShareItemProps) {
  const { t, i18n } = useTranslation();
  const media = mediaTypeOf(file.name, file.mime_type);
  const shared = `${t('publicShare.sharedBy', { name: view.user_info.nickname })} · ${
    view.expiration_at === '-1' ? t('share.neverExpires') : t('publicShare.until', { date: formatTime(view.expiration_at, i18n.language) })
  }`;
  const size = formatSize(file.size, 1, i18n.language);
  // A title the owner chose heads the page; the file keeps its own name beside it.
  const title = view.title || file.name;
  const actions = (
    <div className="single-actions">
      <button className="btn" onClick={onDownload}>
        <Icon name="download" size={18} />
        {t('actions.download')}
      </button>
      <button className="btn primary" onClick={onSave}>
        {t('publicShare.saveAll')}
      </button>
    </div>
  );
  const report = (
    <button type="button" className="link report-link single-report" onClick={onReport}>
      {t('shareReport.openItem')}
    </button>
  );

  if (!media) {
    return (
      <section className="single-card">
        <span className={`ficon ${iconFor(file)}`}>
          <Icon name={iconFor(file)} size={56} />
        </span>
        <h1 title={title}>{title}</h1>
        {title !== file.name && <p className="single-name">{file.name}</p>}
        <p className="muted">
          {size} · {formatTime(file.modified_time, i18n.language)}
        </p>
        <p className="muted single-shared">{shared}</p>
        {actions}
        {report}
      </section>
    );
  }

  return (
    <section className="single-media">
      <MediaStage file={file} media={media} source={source} onOpen={onOpen} />
      <div className="single-bar">
        <span className={`ficon ${media}`}>
          <Icon name={media} size={28} />
        </span>
        <div className="single-text">
          <h1 title={title}>{title}</h1>
          {title !== file.name && <p className="single-name">{file.name}</p>}
          <p className="muted">
            {size} · {shared}
          </p>
        </div>
        {actions}
      </div>
      {report}
    </section>
  );
}

/**
 * The picture: the thumbnail link when the share carries one, else the original through the share's link (the one
 * the viewer shows, from the same cache). Videos show their first frame under a play button.
 */
function MediaStage({ file, media, source, onOpen }: { file: DriveFile; media: MediaType; source: ViewerSource; onOpen: () => void }) {
  const { t } = useTranslation();
  const [link, setLink] = useState(file.thumbnail_link);
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');
  useEffect(() => {
    if (file.thumbnail_link || media === 'audio') return;
    let live = true;
    viewerDetail(file, source).then(
      (d) => live && (d.web_content_link ? setLink(d.web_content_link) : setState('failed')),
      () => live && setState('failed'),
    );
    return () => {
      live = false;
    };
  }, [file, media, source]);

  const still = media === 'image' || !!file.thumbnail_link;
  let picture = null;
  if (media !== 'audio' && link && state !== 'failed') {
    picture = still ? (
      <img src={link} alt={file.name} decoding="async" onLoad={() => setState('shown')} onError={() => setState('failed')} />
    ) : (
      // The first frame as a poster: metadata only, muted, never played here (the viewer plays it).
      <video
        src={`${link}#t=0.1`}
        preload="metadata"
        muted
        playsInline
        aria-hidden="true"
        tabIndex={-1}
        onLoadedData={() => setState('shown')}
        onError={() => setState('failed')}
      />
    );
  }
  const waiting = state === 'loading' && media !== 'audio';
  return (
    <button
      type="button"
      className={`single-stage ${media}${state === 'shown' ? ' shown' : ''}${waiting ? ' waiting' : ''}`}
      onClick={onOpen}
      aria-label={t(media === 'image' ? 'publicShare.viewOf' : 'publicShare.playOf', { name: file.name })}
    >
      {state !== 'shown' && (
        <span className={`ficon stage-icon ${media}`}>
          <Icon name={media} size={72} />
        </span>
      )}
      {picture}
      {media !== 'image' && (
        <span className="stage-play" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="30" height="30">
            <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
          </svg>
        </span>
      )}
    </button>
  );
}
