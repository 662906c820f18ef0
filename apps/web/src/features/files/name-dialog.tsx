/** The dialog that names a new folder or renames an item, opened through the dialog store. */
import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Frame } from '../../app/dialogs/dialog-frame';
import { useDialog } from '../../app/dialogs/dialog-store';
import { FormError } from '../../components/form-error';
import { nameProblem } from './file-mutations';

/** A name field with its check; `onSubmit` makes the change. */
export function NameDialog({
  title,
  initial,
  submitLabel,
  onSubmit,
}: {
  title: string;
  initial: string;
  submitLabel: string;
  /** Truthy when it worked; falsy (after its own toast) when it did not. */
  onSubmit: (name: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const close = useDialog((s) => s.close);
  const [name, setName] = useState(initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = nameProblem(name);
    if (problem) return setError(problem);
    setBusy(true);
    const ok = await onSubmit(name);
    setBusy(false);
    // A failure (offline, a server error) keeps the dialog and what was typed, so the person can try again.
    if (ok) close();
  };
  // Select the name without its extension, as file managers do, so typing replaces just the name.
  const selectStem = (el: HTMLInputElement | null) => {
    if (!el || el.dataset.selected) return;
    el.dataset.selected = '1';
    const dot = initial.lastIndexOf('.');
    requestAnimationFrame(() => el.setSelectionRange(0, dot > 0 ? dot : initial.length));
  };
  return (
    <Frame title={title}>
      <form onSubmit={submit}>
        <label className="field">
          <span>{t('files.name')}</span>
          <input
            ref={selectStem}
            autoFocus
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError('');
            }}
            aria-invalid={!!error}
          />
        </label>
        <FormError error={error} />
        <div className="dialog-actions">
          <Dialog.Close className="btn" type="button">
            {t('common.cancel')}
          </Dialog.Close>
          <button className="btn primary" type="submit" disabled={busy || !name.trim()}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Frame>
  );
}
