/** The yes-or-no dialog any feature opens with `{ type: 'confirm' }`; it closes once the confirmed work is done. */
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Frame } from './dialog-frame';
import { useDialog, type DialogState } from './dialog-store';

/** Asks `d.body`; confirming runs `d.onConfirm` with the button held busy. */
export function ConfirmDialog({ d }: { d: Extract<DialogState, { type: 'confirm' }> }) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [busy, setBusy] = useState(false);
  return (
    <Frame title={d.title}>
      <p>{d.body}</p>
      <div className="dialog-actions">
        <Dialog.Close className="btn" type="button">
          {t('common.cancel')}
        </Dialog.Close>
        <button
          className={`btn ${d.danger ? 'danger' : 'primary'}`}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await d.onConfirm();
            close();
          }}
        >
          {d.confirmLabel}
        </button>
      </div>
    </Frame>
  );
}
