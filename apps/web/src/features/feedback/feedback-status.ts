/** A message's status in words, for the person's list and the operator's console alike. */
import type { TFunction } from 'i18next';
import type { FeedbackStatus } from '@haul/shared';

const STATUS_TEXT: Record<FeedbackStatus, (t: TFunction) => string> = {
  open: (t) => t('feedback.status.open'),
  answered: (t) => t('feedback.status.answered'),
  closed: (t) => t('feedback.status.closed'),
};

export const feedbackStatusText = (t: TFunction, status: string): string =>
  Object.hasOwn(STATUS_TEXT, status) ? STATUS_TEXT[status as FeedbackStatus](t) : status;
