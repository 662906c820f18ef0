/**
 * The header's search field: searches the current main view (or all files) as the person types (250 ms after the last
 * key, seed 001 §9), and remembers the last three terms sent with Enter.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Icon } from '../../components/icon';
import { entryFolderOf, loadHistory, pushHistory, readSearch, saveHistory, SEARCHABLE_VIEWS, writeSearch } from './search-state';

export function SearchBox() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const current = readSearch(params);
  const [term, setTerm] = useState(current?.name ?? '');
  const [history, setHistory] = useState(loadHistory);
  useEffect(() => setTerm(readSearch(params)?.name ?? ''), [params]);

  /** Shows the results for `text`; while typing, the address is replaced rather than added to for every key. */
  const go = (text: string, typing: boolean) => {
    const view = location.pathname.split('/')[1] ?? 'all';
    const searchable = (SEARCHABLE_VIEWS as readonly string[]).includes(view);
    const base = searchable ? location.pathname : '/all';
    const folderId = view === 'all' ? location.pathname.split('/')[2] : undefined;
    // A search started inside a folder looks in that folder (and below) until the person picks "All files", as hosted
    // drives do; a search already under way keeps the scope it has.
    const entry = current ? entryFolderOf(params) : folderId;
    const scope = current ? current.folderId : folderId;
    const next = writeSearch(searchable ? params : new URLSearchParams(), { ...(current ?? {}), name: text.trim() || undefined, folderId: scope }, entry);
    const qs = next.toString();
    void navigate(qs ? `${base}?${qs}` : base, { replace: typing && !!current });
  };

  // Search as the person types, once they pause.
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => {
      // Enter may have sent it meanwhile.
      if (!typed.current) return;
      typed.current = false;
      go(term, true);
    }, 250);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the typed term starts a search
  }, [term]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    typed.current = false;
    if (term.trim()) {
      const h = pushHistory(history, term);
      setHistory(h);
      saveHistory(h);
    }
    go(term, false);
  };

  return (
    <form className="search" role="search" onSubmit={submit}>
      <Icon name="search" size={18} />
      <input
        type="search"
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={term}
        onChange={(e) => {
          typed.current = true;
          setTerm(e.target.value);
        }}
        list="search-history"
        // Another browser may have added terms since (they follow the account).
        onFocus={() => setHistory(loadHistory())}
        maxLength={200}
      />
      <datalist id="search-history">
        {history.map((h) => (
          <option key={h} value={h} />
        ))}
      </datalist>
    </form>
  );
}
