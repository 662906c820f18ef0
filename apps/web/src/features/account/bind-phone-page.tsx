/**
 * Phone number (/account/bind-phone, the seeds' route): a number with its country code and the current password,
 * then the code texted to it; once bound, the number signs in and resets a forgotten password. An account with a
 * number can also remove it with the password alone.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { displayPhoneNumber, normalPhoneNumber } from '@haul/shared/phone-numbers';
import { changePhone, getMe, removePhone, sendCode } from '../auth/auth-api';
import { ContactChangeForm, type ContactKind } from './contact-change-form';

export function BindPhonePage() {
  const { t } = useTranslation();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const current = me?.phone_number ? displayPhoneNumber(me.phone_number) : '';
  const kind: ContactKind = {
    title: current ? t('phone.change') : t('phone.add'),
    now: current ? t('phone.now', { phone: current }) : t('phone.none'),
    field: { label: t('phone.newNumber'), type: 'tel', autoComplete: 'tel', hint: t('phone.hint') },
    check: normalPhoneNumber,
    invalid: t('phone.invalid'),
    codeIncomplete: t('phone.codeIncomplete'),
    sendCode: (to) => sendCode('PHONE_NUMBER_CHANGE', to),
    sentNotice: (to) => t('phone.codeSent', { phone: displayPhoneNumber(to) }),
    change: changePhone,
    changed: (user) => t('phone.changed', { phone: displayPhoneNumber(user.phone_number) }),
    secondary: current ? { label: t('phone.remove'), run: removePhone, done: t('phone.removed') } : undefined,
  };
  return <ContactChangeForm kind={kind} id="bind-phone" />;
}
