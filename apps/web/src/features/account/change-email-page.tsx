/**
 * Change e-mail (/account/bind-email, the seeds' route): the new address and the current password, then the code
 * mailed to the new address (contact-change-form.tsx). The old address is told by the server.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isEmail } from '@haul/shared/plain';
import { changeEmail, getMe, sendCode } from '../auth/auth-api';
import { ContactChangeForm, type ContactKind } from './contact-change-form';

export function ChangeEmailPage() {
  const { t } = useTranslation();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const kind: ContactKind = {
    title: t('account.changeEmail'),
    now: t('account.emailNow', { email: me?.email ?? '' }),
    field: { label: t('account.newEmail'), type: 'email', autoComplete: 'email' },
    check: (typed) => (isEmail(typed.trim()) ? typed.trim() : null),
    invalid: t('auth.invalidEmail'),
    codeIncomplete: t('auth.codeIncomplete'),
    sendCode: (to) => sendCode('EMAIL_ADDRESS_CHANGE', to),
    sentNotice: (to) => t('account.emailCodeSent', { email: to }),
    change: changeEmail,
    changed: (user) => t('account.emailChanged', { email: user.email }),
  };
  return <ContactChangeForm kind={kind} id="change-email" />;
}
