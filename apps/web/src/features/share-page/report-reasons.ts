/** The reasons of a share report in words, for the visitor's form and the operator's queue alike. */
import type { TFunction } from 'i18next';
import type { ReportReason } from '@haul/shared';

/** Every key written out, so the key check finds them; typed by the rule's list, so a new reason cannot go without words. */
const REASON_TEXT: Record<ReportReason, (t: TFunction) => string> = {
  copyright: (t) => t('shareReport.reason.copyright'),
  sexual: (t) => t('shareReport.reason.sexual'),
  violence: (t) => t('shareReport.reason.violence'),
  illegal: (t) => t('shareReport.reason.illegal'),
  spam: (t) => t('shareReport.reason.spam'),
  other: (t) => t('shareReport.reason.other'),
};

/** A reason in words; one this client does not know yet, as the server names it. */
export const reportReasonText = (t: TFunction, reason: string): string =>
  Object.hasOwn(REASON_TEXT, reason) ? REASON_TEXT[reason as ReportReason](t) : reason;
