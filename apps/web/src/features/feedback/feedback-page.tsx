/**
 * Feedback to the operator (seed 000 routes `feedback`, `feedback-v2`): the form, a confirmation once sent, and the
 * person's own messages with their status and the operator's answer. `?where=` names the page it is about (the
 * account menu and the `open_feedback` link fill it with the page they were on).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { OWN_FEEDBACK_KEY } from './feedback-api';
import { FeedbackForm } from './feedback-form';
import { OwnFeedbackList } from './own-feedback-list';
import './feedback.css';

export function FeedbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [sent, setSent] = useState(false);
  return (
    <section className="page feedback-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('feedback.title')}</h1>
      </div>
      <div className="account-form">
        <p className="muted">{t('feedback.intro')}</p>
        {sent && (
          <p className="feedback-sent" role="status">
            {t('feedback.sent')}
          </p>
        )}
        <FeedbackForm
          where={params.get('where') ?? ''}
          onSent={() => {
            setSent(true);
            void queryClient.invalidateQueries({ queryKey: OWN_FEEDBACK_KEY });
          }}
        />
        <h2 id="feedback-mine">{t('feedback.mine')}</h2>
        <OwnFeedbackList labelledBy="feedback-mine" />
      </div>
    </section>
  );
}
