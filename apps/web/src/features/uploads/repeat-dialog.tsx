/**
 * The repeat-upload question (seed 000 §4): some picked files were uploaded to this folder before. Cancel, skip
 * them, or keep both. The upload manager asks through `askRepeat` and waits for the answer.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';

export type RepeatChoice = 'cancel' | 'skip' | 'keep_both';

interface RepeatState {
  names: string[] | null;
  answer: ((c: RepeatChoice) => void) | null;
}

const useRepeat = create<RepeatState>()(() => ({ names: null, answer: null }));

/** Opens the dialog for these file names and resolves with the person's choice. */
export function askRepeat(names: string[]): Promise<RepeatChoice> {
  return new Promise((resolve) => {
    useRepeat.setState({
      names,
      answer: (c) => {
        useRepeat.setState({ names: null, answer: null });
        resolve(c);
      },
    });
  });
}

export function RepeatDialog() {
  const { t } = useTranslation();
  const { names, answer } = useRepeat();
  if (!names || !answer) return null;
  return (
    <Dialog.Root open onOpenChange={(o) => !o && answer('cancel')}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog-title">{t('uploads.repeatTitle', { count: names.length })}</Dialog.Title>
          <Dialog.Description>{t('uploads.repeatBody')}</Dialog.Description>
          <ul className="repeat-list">
            {names.slice(0, 5).map((n) => (
              <li key={n}>{n}</li>
            ))}
            {names.length > 5 && <li className="muted">{t('uploads.repeatMore', { count: names.length - 5 })}</li>}
          </ul>
          <div className="dialog-actions">
            <button className="btn" onClick={() => answer('cancel')}>
              {t('common.cancel')}
            </button>
            <button className="btn" onClick={() => answer('skip')}>
              {t('uploads.skip')}
            </button>
            <button className="btn primary" onClick={() => answer('keep_both')}>
              {t('uploads.keepBoth')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
