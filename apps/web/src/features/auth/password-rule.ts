/** The password rule, told up front on every form that sets a password and checked before the server is asked. */
import i18n from 'i18next';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@haul/shared/plain';

export const passwordRule = (): string => i18n.t('auth.passwordLength', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });

export const passwordFits = (password: string): boolean =>
  password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH;
