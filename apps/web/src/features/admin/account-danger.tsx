/**
 * The account page's password and deletion actions, each confirmed first: mail the owner a password-reset code (the
 * toast names the address it went to), and delete the account (the confirmation names the address and what goes),
 * then back to the list. The operator's own account is deleted from their own account page, not here.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { useDialog } from '../../app/dialogs/dialog-store';
import { ADMIN_KEY, userKey, type AdminUser, type AdminUserDetail } from './admin-api';
import { deleteAccount, sendPasswordReset } from './admin-accounts-api';

export function AccountDanger({ user, usage, self }: { user: AdminUser; usage: AdminUserDetail['usage']; self: boolean }) {
  const { t, i18n } = useTranslation();
  const openDialog = useDialog((s) => s.open);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const email = user.email;
  const count = (n: string) => Number(n).toLocaleString(i18n.language);

  const reset = () =>
    openDialog({
      type: 'confirm',
      title: t('adminAccounts.reset.title', { email }),
      body: t('adminAccounts.reset.body', { email }),
      confirmLabel: t('adminAccounts.reset.confirm'),
      onConfirm: () =>
        sendPasswordReset(user.id).then(
          (sent) => void toast.success(t('adminAccounts.reset.done', { email: sent.email })),
          (err: unknown) => void toast.error(errorMessage(err)),
        ),
    });

  const remove = () =>
    openDialog({
      type: 'confirm',
      title: t('adminAccounts.delete.title', { email }),
      body: t('adminAccounts.delete.body', { email, files: count(usage.files), shares: count(usage.shares), tasks: count(usage.tasks_running) }),
      confirmLabel: t('adminAccounts.delete.confirm'),
      danger: true,
      onConfirm: () =>
        deleteAccount(user.id).then(
          () => {
            toast.success(t('adminAccounts.delete.done', { email }));
            // Off the page first: its own query would ask again for the account that is gone.
            void navigate('/admin');
            queryClient.removeQueries({ queryKey: userKey(user.id) });
            void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
          },
          (err: unknown) => void toast.error(errorMessage(err)),
        ),
    });

  return (
    <div className="admin-actions">
      <button className="btn" type="button" onClick={reset} disabled={user.disabled} title={user.disabled ? t('adminAccounts.reset.disabled') : undefined}>
        {t('adminAccounts.reset.button')}
      </button>
      {!self && (
        <button className="btn danger" type="button" onClick={remove}>
          {t('adminAccounts.delete.button')}
        </button>
      )}
    </div>
  );
}
