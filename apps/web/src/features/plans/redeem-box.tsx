/**
 * The redeem box (seed 000 `action=open_redeem_box`): a code from the operator grants premium, storage or transfer.
 * Opened from the account menu, the payment pages, or any drive address with ?action=open_redeem_box (deep-links/).
 */
import { useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { create } from 'zustand';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { continueLimitedTasks } from '../limits';
import { describeGrant } from './plan-format';
import { PLAN_KEYS, redeemCode } from './plans-api';

const useRedeemStore = create<{ shown: boolean; set: (shown: boolean) => void }>()((set) => ({ shown: false, set: (shown) => set({ shown }) }));

export function useRedeemBox() {
  const set = useRedeemStore((s) => s.set);
  return { open: () => set(true) };
}

export function RedeemBoxHost() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const shown = useRedeemStore((s) => s.shown);
  const set = useRedeemStore((s) => s.set);
  const [code, setCode] = useState('');
  const { busy, error, setError, submit: redeem } = useSubmit();

  const close = () => {
    set(false);
    setCode('');
    setError('');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return setError(t('plans.enterCode'));
    await redeem(async () => {
      const { granted } = await redeemCode(code.trim());
      toast.success(t('plans.redeemed', { what: granted.map((g) => describeGrant(g, t, i18n.language)).join(', ') }));
      close();
      await Promise.all(PLAN_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey: [...queryKey] })));
      void continueLimitedTasks();
    }, errorMessage);
  };

  if (!shown) return null;
  return (
    <Dialog.Root open onOpenChange={(o) => !o && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <form onSubmit={submit} noValidate>
            <Dialog.Title className="dialog-title">{t('plans.redeemTitle')}</Dialog.Title>
            <Dialog.Description>{t('plans.redeemBody')}</Dialog.Description>
            <TextField label={t('plans.code')} value={code} onChange={(e) => setCode(e.target.value)} error={error} autoComplete="off" spellCheck={false} autoFocus required />
            <div className="dialog-actions">
              <button className="btn" type="button" onClick={close}>
                {t('common.cancel')}
              </button>
              <button className="btn primary" type="submit" disabled={busy}>
                {t('plans.redeem')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
