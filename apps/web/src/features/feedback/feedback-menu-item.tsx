/** The account menu's "Feedback": opens the feedback page about the page the person is on. */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { feedbackAddress } from './feedback-address';

export function FeedbackMenuItem() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <Menu.Item className="menu-item" onSelect={() => navigate(feedbackAddress(pathname))}>
      {t('feedback.menuItem')}
    </Menu.Item>
  );
}
