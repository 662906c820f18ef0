/** The layout of one line of the transfer list, for uploads and cloud downloads alike. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../components/icon';

export interface TransferButton {
  label: string;
  icon: IconName;
  onClick: () => void;
}

export function TransferItem({
  name,
  title,
  meta,
  error,
  details,
  progress,
  buttons,
}: {
  name: string;
  title?: string;
  meta: ReactNode;
  error?: string;
  /** What the engine said of a failure, for whoever looks closer; the row's words are `error`. */
  details?: string;
  /** 0–100, or null once finished (no bar). */
  progress: number | null;
  buttons: TransferButton[];
}) {
  const { t } = useTranslation();
  return (
    <li className="transfer" aria-label={name}>
      <div className="transfer-main">
        <span className="fname" title={title ?? name}>
          {name}
        </span>
        <small className="muted">{meta}</small>
        {error && <small className="form-error">{error}</small>}
        {details && (
          <details className="transfer-details">
            <summary>{t('cloud.details')}</summary>
            <small>{details}</small>
          </details>
        )}
        {progress !== null && (
          <div
            className="transfer-bar"
            role="progressbar"
            aria-label={name}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.floor(progress)}
          >
            <span style={{ width: `${progress}%` }} />
          </div>
        )}
      </div>
      {buttons.map((b) => (
        <button key={b.label} className="icon-btn" onClick={b.onClick} aria-label={`${b.label}: ${name}`} title={b.label}>
          <Icon name={b.icon} size={18} />
        </button>
      ))}
    </li>
  );
}
