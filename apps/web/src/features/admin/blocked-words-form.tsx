/**
 * The blocked words, one a line: what they do said above the list, checked here first (length, count), saved as one
 * list; the box then shows the list as the server keeps it (lower case, sorted, each once).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { BLOCKED_WORDS_KEY, getBlockedWords, setBlockedWords } from './admin-api';
import { MAX_WORD_LENGTH, MAX_WORDS, parseWords } from './share-input';

function WordsForm({ words }: { words: string[] }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const [text, setText] = useState(() => words.join('\n'));
  const { busy, error, setError, submit } = useSubmit();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseWords(text);
    if ('error' in parsed) {
      return setError(
        parsed.error === 'tooLong'
          ? t('admin.words.tooLong', { word: parsed.word.slice(0, 80), max: MAX_WORD_LENGTH })
          : t('admin.words.tooMany', { max: MAX_WORDS.toLocaleString(i18n.language) }),
      );
    }
    await submit(async () => {
      const now = await setBlockedWords(parsed.words);
      queryClient.setQueryData(BLOCKED_WORDS_KEY, now);
      setText(now.words.join('\n'));
      toast.success(
        now.words.length ? t('admin.words.saved', { n: now.words.length.toLocaleString(i18n.language) }) : t('admin.words.cleared'),
      );
    }, errorMessage);
  };

  return (
    <form onSubmit={save} noValidate>
      <div className="field">
        <label htmlFor={id}>{t('admin.words.label')}</label>
        <textarea
          id={id}
          className="admin-words"
          rows={8}
          value={text}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => {
            setText(e.target.value);
            setError('');
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
        />
        <small id={`${id}-hint`} className="muted">
          {t('admin.words.hint')}
        </small>
      </div>
      <FormError error={error} />
      <button className="btn primary" type="submit" disabled={busy}>
        {t('admin.words.save')}
      </button>
    </form>
  );
}

/** The card: what blocked words do, and the list to change. */
export function BlockedWords() {
  const { t } = useTranslation();
  const words = useQuery({ queryKey: BLOCKED_WORDS_KEY, queryFn: ({ signal }) => getBlockedWords(signal), meta: { quiet: true } });
  return (
    <section className="admin-card admin-words-card" aria-labelledby="admin-words-title">
      <h2 id="admin-words-title">{t('admin.words.title')}</h2>
      <p className="admin-note">{t('admin.words.about')}</p>
      {words.isPending && <p className="muted">{t('common.loading')}</p>}
      {words.isError && <FormError error={errorMessage(words.error)} />}
      {words.data && <WordsForm key={words.data.words.join('\n')} words={words.data.words} />}
    </section>
  );
}
