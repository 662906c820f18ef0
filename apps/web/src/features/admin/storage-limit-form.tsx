/** The account's own storage limit, typed in GB: checked here first (a size, at most 1 PB), the server's refusal in words. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import type { AdminUser } from './admin-api';
import { useAccountChange } from './account-change';
import { gbValue, MAX_LIMIT_GB, parseGb, sizeText } from './storage-size';

export function StorageLimitForm({ user }: { user: AdminUser }) {
  const { t, i18n } = useTranslation();
  const { change } = useAccountChange(user.id);
  const [value, setValue] = useState(() => gbValue(Number(user.storage_limit)));
  const { busy, error, setError, submit } = useSubmit();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseGb(value);
    if ('error' in parsed) {
      return setError(
        parsed.error === 'tooBig' ? t('admin.limit.tooBig', { max: MAX_LIMIT_GB.toLocaleString(i18n.language) }) : t('admin.limit.invalid'),
      );
    }
    await submit(
      async () => {
        const now = await change({ storage_limit: String(parsed.bytes) });
        toast.success(t('admin.limit.saved', { email: now.email, size: sizeText(Number(now.storage_limit), i18n.language) }));
      },
      (err) => errorMessage(err),
    );
  };

  return (
    <form className="admin-limit" onSubmit={save} noValidate>
      <TextField
        label={t('admin.limit.label')}
        hint={t('admin.limit.hint')}
        error={error}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setError('');
        }}
        inputMode="decimal"
        autoComplete="off"
      />
      <button className="btn primary" type="submit" disabled={busy}>
        {t('admin.limit.save')}
      </button>
    </form>
  );
}
