/**
 * The current password that confirms it is you. Typing in it drops a sudo token kept for the password typed before,
 * so a corrected password is checked again rather than a stale grant reused.
 */
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from '../../components/text-field';

type Props = Omit<TextFieldProps, 'label' | 'type' | 'autoComplete' | 'onChange' | 'required'> & {
  onValue: (value: string) => void;
  /** The page's kept sudo token, if it keeps one. */
  sudo?: { forget(): void };
};

export function CurrentPasswordField({ onValue, sudo, ...field }: Props) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('account.currentPassword')}
      type="password"
      autoComplete="current-password"
      onChange={(e) => {
        onValue(e.target.value);
        sudo?.forget();
      }}
      required
      {...field}
    />
  );
}
