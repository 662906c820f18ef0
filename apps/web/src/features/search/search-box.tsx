/** The header's search field: searches the current main view (or all files), remembers the last three terms. */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Icon } from '../layout/icon';
import { loadHistory, pushHistory, readSearch, saveHistory, SEARCHABLE_VIEWS, writeSearch } from './search-state';

export function SearchBox() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const current = readSearch(params);
  const [term, setTerm] = useState(current?.name ?? '');
  const [history, setHistory] = useState(loadHistory);
  useEffect(() => setTerm(readSearch(params)?.name ?? ''), [params]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const view = location.pathname.split('/')[1] ?? 'all';
    const searchable = (SEARCHABLE_VIEWS as readonly string[]).includes(view);
    const base = searchable ? location.pathname : '/all';
    const folderId = view === 'all' ? location.pathname.split('/')[2] : undefined;
    const next = writeSearch(searchable ? params : new URLSearchParams(), { ...(current ?? {}), name: term.trim() || undefined }, folderId);
    if (term.trim()) {
      const h = pushHistory(history, term);
      setHistory(h);
      saveHistory(h);
    }
    const qs = next.toString();
    navigate(qs ? `${base}?${qs}` : base);
  };

  return (
    <form className="search" role="search" onSubmit={submit}>
      <Icon name="search" size={18} />
      <input
        type="search"
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        list="search-history"
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
