/**
 * The error popup over a file that failed (seed 001 §2, §8): a picture (network, or unsupported), a title, a
 * subtitle, the code, and the buttons the rules give for the cause and the platform.
 */
import { useTranslation } from 'react-i18next';
import type { DriveFile } from '@haul/shared';
import { Icon } from '../../components/icon';
import { buttonsFor, pictureOf, type ViewerFailure } from './viewer-errors';
import type { ViewKind } from './view-kind';

export function ErrorPopup({
  failure,
  kind,
  file,
  mobile,
  hasNext,
  onRetry,
  onNext,
  onExternal,
  onDownload,
}: {
  failure: ViewerFailure;
  kind: ViewKind | null;
  file: DriveFile;
  mobile: boolean;
  hasNext: boolean;
  onRetry: () => void;
  onNext: () => void;
  onExternal: () => void;
  onDownload: () => void;
}) {
  const { t } = useTranslation();
  const media = kind === 'image' || kind === 'video' || kind === 'audio';
  const title =
    failure.cause === 'network'
      ? t('viewer.failure.network')
      : failure.cause === 'deleted'
        ? t('viewer.deleted')
        : failure.cause === 'no_link'
          ? t(kind === 'image' ? 'viewer.failure.noLinkImage' : 'viewer.failure.noLinkPlay')
          : failure.cause === 'server'
            ? failure.message || t('errors.operation_failed')
            : media
              ? t(`viewer.failure.unsupported.${kind}`)
              : t(`viewer.unsupported.${kind ?? 'file'}`);
  const buttons = buttonsFor(failure, kind, { mobile, hasNext, canDownload: !!file.web_content_link });
  const picture = pictureOf(failure);
  return (
    <div className="viewer-error" role="alert" data-cause={failure.cause}>
      <Icon name={picture === 'network' ? 'globe' : media ? kind : 'file'} size={56} />
      <h2>{title}</h2>
      {failure.cause === 'unsupported' && (
        <p className="muted">{t(buttons.includes('external') ? 'viewer.failure.unsupportedHint' : 'viewer.unsupportedHint')}</p>
      )}
      {failure.code !== null && <p className="muted viewer-error-code">{t('viewer.failure.code', { code: failure.code })}</p>}
      <div className="viewer-error-actions">
        {buttons.map((b) =>
          b === 'retry' ? (
            <button key={b} className="btn" onClick={onRetry}>
              {t('viewer.retry')}
            </button>
          ) : b === 'next' ? (
            <button key={b} className="btn primary" onClick={onNext}>
              {t('viewer.next')}
            </button>
          ) : b === 'external' ? (
            <button key={b} className="btn" onClick={onExternal}>
              {t('viewer.externalPlayer')}
            </button>
          ) : (
            <button key={b} className="btn" onClick={onDownload}>
              {t('actions.download')}
            </button>
          ),
        )}
      </div>
    </div>
  );
}
