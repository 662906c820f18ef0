/** The person's own messages, newest first: status, when, the page, the message, the screenshot and the answer. */
import { useTranslation } from 'react-i18next';
import { PagedList } from '../../components/paged-list';
import { listOwnFeedback, OWN_FEEDBACK_KEY, ownScreenshot } from './feedback-api';
import { FeedbackItem } from './feedback-item';
import { ScreenshotImage } from './screenshot-image';

export function OwnFeedbackList({ labelledBy }: { labelledBy: string }) {
  const { t } = useTranslation();
  return (
    <PagedList
      queryKey={OWN_FEEDBACK_KEY}
      load={listOwnFeedback}
      items={(p) => p.feedback}
      itemKey={(f) => f.id}
      empty={t('feedback.none')}
      ordered
      className="feedback-list"
      labelledBy={labelledBy}
      moreLabel={t('feedback.loadMore')}
    >
      {(f) => (
        <FeedbackItem status={f.status} createdTime={f.created_time} className="feedback-item">
          {f.where && <small className="muted feedback-where">{t('feedback.whereValue', { where: f.where })}</small>}
          <p className="feedback-text">{f.message}</p>
          {f.has_screenshot && <ScreenshotImage queryKey={[...OWN_FEEDBACK_KEY, 'shot', f.id]} load={(s) => ownScreenshot(f.id, s)} alt={t('feedback.screenshotAlt')} />}
          {f.answer && (
            <div className="feedback-answer">
              <strong>{t('feedback.answer')}</strong>
              <p className="feedback-text">{f.answer}</p>
            </div>
          )}
        </FeedbackItem>
      )}
    </PagedList>
  );
}
