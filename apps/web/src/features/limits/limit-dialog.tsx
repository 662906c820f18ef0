/**
 * The limit dialog (seed 001 §4 "Traffic limit"): what ran out, with the numbers of error_description's JSON, when it
 * starts over, the benefits of premium, and Upgrade, which leads to the payment page with the stopped task's id.
 */
import * as Dialog from '@radix-ui/react-dialog';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatSize } from '@haul/shared/plain';
import type { LimitDetails } from '@haul/shared';
import { DialogX } from '../../components/dialog-x';
import { BenefitCarousel } from './benefit-carousel';
import { BENEFITS_OF, upgradePath } from './limit-kinds';
import { useLimitDialog } from './limit-store';
import './limits.css';

/** "1.2 GB of 1 GB", or a count for the daily cloud downloads. */
export function amountWords(d: Pick<LimitDetails, 'kind' | 'usage' | 'limit'>, language: string): string {
  const fmt = (v: string) => (d.kind === 'cloud_download' ? v : formatSize(Number(v), 1, language));
  return i18next.t('limits.usedOf', { used: fmt(d.usage), limit: fmt(d.limit) });
}

/**
 * What did not fit, against what is left, for a refusal that says what it needed ("This file is 3 GB; 1.2 GB of your
 * 5 GB is free"); null when the details do not say (the dialog then names the limit alone).
 */
export function neededWords(d: LimitDetails | null, language: string): string | null {
  if (!d?.needed || d.kind === 'cloud_download') return null;
  const size = (v: number) => formatSize(Math.max(0, v), 1, language);
  const n = { size: size(Number(d.needed)), free: size(Number(d.limit) - Number(d.usage)), limit: size(Number(d.limit)) };
  const kind: string = d.kind;
  if (kind === 'storage') return i18next.t('limits.need.storage', n);
  if (kind === 'task_size') return i18next.t('limits.need.task_size', n);
  return i18next.t(kind === 'download_size_day' ? 'limits.need.day' : 'limits.need.month', n);
}

/** The dialog's title: a drive with room left is not "full", it is short of room for this one thing. */
function titleKey(type: string, d: LimitDetails | null): string {
  if (type === 'storage' && d && Number(d.usage) < Number(d.limit)) return 'limits.title.storage_short';
  return `limits.title.${type}`;
}

/** A reset time in the reader's words: date and time in their zone. */
export const resetWords = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

export function LimitDialogHost() {
  const { t, i18n } = useTranslation();
  const open = useLimitDialog((s) => s.open);
  const close = useLimitDialog((s) => s.close);
  if (!open) return null;
  const d = open.details;
  const usagePage = open.type === 'storage' ? '/space-management' : '/traffic-management';
  // A dialog whose limit premium does not lift advertises nothing; its Upgrade leads to the goods that do (storage packs).
  return (
    <Dialog.Root open onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog wide limit-dialog" data-limit={open.type}>
          <Dialog.Title className="dialog-title">{t(titleKey(open.type, d))}</Dialog.Title>
          <Dialog.Description className="limit-words">
            {neededWords(d, i18n.language) ?? t(`limits.text.${open.code}`)}
          </Dialog.Description>
          {d && d.kind !== ('task_size' as string) && (
            <p className="limit-numbers">
              {amountWords(d, i18n.language)}
              {d.reset_at && ` · ${t('limits.resets', { time: resetWords(d.reset_at, i18n.language) })}`}
            </p>
          )}
          <BenefitCarousel only={BENEFITS_OF[open.type]} />
          <div className="dialog-actions">
            <Link className="btn" to={usagePage} onClick={close}>
              {t('limits.seeUsage')}
            </Link>
            <Link className="btn primary" to={upgradePath(open.type, open.taskId)} onClick={close}>
              {t('limits.upgrade')}
            </Link>
          </div>
          <p className="limit-hint">{open.taskId ? t('limits.continues') : ''}</p>
          <DialogX />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
