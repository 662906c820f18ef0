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
import { BenefitCarousel } from './benefit-carousel';
import { upgradePath } from './limit-kinds';
import { useLimitDialog } from './limit-store';
import './limits.css';

/** "1.2 GB of 1 GB", or a count for the daily cloud downloads. */
export function amountWords(d: Pick<LimitDetails, 'kind' | 'usage' | 'limit'>, language: string): string {
  const fmt = (v: string) => (d.kind === 'cloud_download' ? v : formatSize(Number(v), 1, language));
  return i18next.t('limits.usedOf', { used: fmt(d.usage), limit: fmt(d.limit) });
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
  return (
    <Dialog.Root open onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog wide limit-dialog" data-limit={open.type}>
          <Dialog.Title className="dialog-title">{t(`limits.title.${open.type}`)}</Dialog.Title>
          <Dialog.Description className="limit-words">
            {t(`limits.text.${open.code}`)}
          </Dialog.Description>
          {d && (
            <p className="limit-numbers">
              {amountWords(d, i18n.language)}
              {d.reset_at && ` · ${t('limits.resets', { time: resetWords(d.reset_at, i18n.language) })}`}
            </p>
          )}
          <BenefitCarousel />
          <div className="dialog-actions">
            <Link className="btn" to={usagePage} onClick={close}>
              {t('limits.seeUsage')}
            </Link>
            <Link className="btn primary" to={upgradePath(open.type, open.taskId)} onClick={close}>
              {t('limits.upgrade')}
            </Link>
          </div>
          <p className="limit-hint">{open.taskId ? t('limits.continues') : ''}</p>
          <Dialog.Close className="icon-btn dialog-x" aria-label={t('common.close')}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
