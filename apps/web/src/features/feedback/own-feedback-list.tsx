/** The person's own messages, newest first: status, when, the page, the message, the screenshot and the answer. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../files/format-time';
import { listOwnFeedback, OWN_FEEDBACK_KEY, ownScreenshot } from './feedback-api';
import { feedbackStatusText } from './feedback-status';
import { ScreenshotImage } from './screenshot-image';

export function OwnFeedbackList({ labelledBy }: { labelledBy: string }) {
  const { t, i18n } = useTranslation();
  const list = useInfiniteQuery({
    queryKey: OWN_FEEDBACK_KEY,
    queryFn: ({ pageParam, signal }) => listOwnFeedback(pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
  });
  if (list.isPending) return <p className="muted">{t('common.loading')}</p>;
  const items = list.data?.pages.flatMap((p) => p.feedback) ?? [];
  if (!items.length) return <p className="muted">{t('feedback.none')}</p>;
  return (
    <>
      <ol className="feedback-list" aria-labelledby={labelledBy}>
        {items.map((f) => (
          <li key={f.id} className="feedback-item" data-status={f.status}>
            <div className="feedback-head">
              <span className="feedback-badge">{feedbackStatusText(t, f.status)}</span>
              <time dateTime={f.created_time} className="muted">
                {formatTime(f.created_time, i18n.language)}
              </time>
            </div>
            {f.where && <small className="muted feedback-where">{t('feedback.whereValue', { where: f.where })}</small>}
            <p className="feedback-text">{f.message}</p>
            {f.has_screenshot && <ScreenshotImage queryKey={[...OWN_FEEDBACK_KEY, 'shot', f.id]} load={(s) => ownScreenshot(f.id, s)} alt={t('feedback.screenshotAlt')} />}
            {f.answer && (
              <div className="feedback-answer">
                <strong>{t('feedback.answer')}</strong>
                <p className="feedback-text">{f.answer}</p>
              </div>
            )}
          </li>
        ))}
      </ol>
      {list.hasNextPage && (
        <button className="btn" type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? t('common.loading') : t('feedback.loadMore')}
        </button>
      )}
    </>
  );
}
