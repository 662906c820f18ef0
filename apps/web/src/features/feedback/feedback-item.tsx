/**
 * One message in a list of feedback, the person's own or the operator's: its status and when it was sent at the head
 * (`who` between them, `aside` after), then what the list shows of it.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../files/format-time';
import { feedbackStatusText } from './feedback-status';

interface Props {
  status: string;
  createdTime: string;
  className: string;
  who?: ReactNode;
  aside?: ReactNode;
  children: ReactNode;
}

export function FeedbackItem({ status, createdTime, className, who, aside, children }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <li className={className} data-status={status}>
      <div className="feedback-head">
        <span className="feedback-badge">{feedbackStatusText(t, status)}</span>
        {who}
        <time dateTime={createdTime} className="muted">
          {formatTime(createdTime, i18n.language)}
        </time>
        {aside}
      </div>
      {children}
    </li>
  );
}
