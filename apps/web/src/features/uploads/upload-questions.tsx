/**
 * Questions the upload manager asks before queueing (seed 000 §2, §4): files uploaded to this folder before (cancel,
 * skip them, keep both), names already taken by files there (cancel, skip, keep both, replace), and files of 4 GB or
 * more on a free account (upload anyway, or leave them out). The manager calls `askRepeat` / `askClash` / `askLarge`
 * and waits for the answer.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';

export type RepeatChoice = 'cancel' | 'skip' | 'keep_both';
export type ClashChoice = RepeatChoice | 'replace';
export type LargeChoice = 'close' | 'anyway';

type Question =
  | { kind: 'repeat'; names: string[]; answer: (c: RepeatChoice) => void }
  | { kind: 'clash'; names: string[]; answer: (c: ClashChoice) => void }
  | { kind: 'large'; names: string[]; answer: (c: LargeChoice) => void };

const useQuestion = create<{ q: Question | null }>()(() => ({ q: null }));

function ask<C>(kind: Question['kind'], names: string[]): Promise<C> {
  return new Promise((resolve) => {
    const answer = (c: C) => {
      useQuestion.setState({ q: null });
      resolve(c);
    };
    useQuestion.setState({ q: { kind, names, answer } as Question });
  });
}

export const askRepeat = (names: string[]) => ask<RepeatChoice>('repeat', names);
export const askClash = (names: string[]) => ask<ClashChoice>('clash', names);
export const askLarge = (names: string[]) => ask<LargeChoice>('large', names);

function Names({ names }: { names: string[] }) {
  const { t } = useTranslation();
  return (
    <ul className="repeat-list">
      {names.slice(0, 5).map((n) => (
        <li key={n}>{n}</li>
      ))}
      {names.length > 5 && <li className="muted">{t('uploads.repeatMore', { count: names.length - 5 })}</li>}
    </ul>
  );
}

export function UploadQuestions() {
  const { t } = useTranslation();
  const q = useQuestion((s) => s.q);
  if (!q) return null;
  const dismiss = () => (q.kind === 'large' ? q.answer('close') : q.answer('cancel'));
  const title = { repeat: 'uploads.repeatTitle', clash: 'uploads.clashTitle', large: 'uploads.largeTitle' }[q.kind];
  const body = { repeat: 'uploads.repeatBody', clash: 'uploads.clashBody', large: 'uploads.largeBody' }[q.kind];
  return (
    <Dialog.Root open onOpenChange={(o) => !o && dismiss()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog-title">{t(title, { count: q.names.length })}</Dialog.Title>
          <Dialog.Description>{t(body)}</Dialog.Description>
          <Names names={q.names} />
          <div className="dialog-actions">
            {q.kind !== 'large' ? (
              <>
                <button className="btn" onClick={() => q.answer('cancel')}>
                  {t('common.cancel')}
                </button>
                <button className="btn" onClick={() => q.answer('skip')}>
                  {t('uploads.skip')}
                </button>
                <button className={q.kind === 'clash' ? 'btn' : 'btn primary'} onClick={() => q.answer('keep_both')}>
                  {t('uploads.keepBoth')}
                </button>
                {q.kind === 'clash' && (
                  <button className="btn primary" onClick={() => q.answer('replace')}>
                    {t('uploads.replace')}
                  </button>
                )}
              </>
            ) : (
              <>
                <button className="btn" onClick={() => q.answer('close')}>
                  {t('common.close')}
                </button>
                <button className="btn primary" onClick={() => q.answer('anyway')}>
                  {t('uploads.uploadAnyway')}
                </button>
              </>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
