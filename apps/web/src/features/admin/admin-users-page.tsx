/**
 * Accounts (/admin): newest first, or those whose address starts with what is typed (kept in the address as `q`),
 * fifty at a time with "Load more"; "New account" opens the form that makes one. A table on a wide screen, a card per
 * account on a phone; each opens the account.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { formatDate } from '../files/format-time';
import { listUsers, usersKey } from './admin-api';
import { sizeText } from './storage-size';
import { NewAccountForm } from './new-account-form';

/** How long typing may pause before the list follows it. */
const TYPING_MS = 250;

export function AdminUsersPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const [creating, setCreating] = useState(false);
  // The address changed without typing (back, the section's link): the box shows what is searched.
  const [shown, setShown] = useState(q);
  if (q !== shown) {
    setShown(q);
    if (typed.trim() !== q) setTyped(q);
  }
  useEffect(() => {
    if (typed.trim() === q) return;
    const timer = setTimeout(() => setParams(typed.trim() ? { q: typed.trim() } : {}, { replace: true }), TYPING_MS);
    return () => clearTimeout(timer);
  }, [typed, q, setParams]);

  const users = useInfiniteQuery({
    queryKey: usersKey(q),
    queryFn: ({ pageParam, signal }) => listUsers(q, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  });
  const rows = users.data?.pages.flatMap((p) => p.users);
  const size = (bytes: string) => sizeText(Number(bytes), i18n.language);

  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 id="admin-users-title" className="crumb current">
          {t('admin.tabs.users')}
        </h1>
        {!creating && (
          <button className="btn primary" type="button" onClick={() => setCreating(true)}>
            {t('adminAccounts.create.open')}
          </button>
        )}
      </div>
      {creating && <NewAccountForm onClose={() => setCreating(false)} />}
      <form className="admin-search" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="admin-q">{t('admin.users.search')}</label>
          <input
            id="admin-q"
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={t('admin.users.searchHint')}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      </form>
      {users.isPending && <p className="muted">{t('common.loading')}</p>}
      {users.isError && <FormError error={errorMessage(users.error)} />}
      {rows?.length === 0 && <p className="muted">{q ? t('admin.users.noMatch', { q }) : t('admin.users.none')}</p>}
      {!!rows?.length && (
        <table className="admin-users" aria-labelledby="admin-users-title" aria-busy={users.isPlaceholderData || undefined}>
          <thead>
            <tr>
              <th scope="col">{t('admin.users.email')}</th>
              <th scope="col">{t('admin.users.name')}</th>
              <th scope="col">{t('admin.users.role')}</th>
              <th scope="col">{t('admin.users.status')}</th>
              <th scope="col">{t('admin.users.storage')}</th>
              <th scope="col">{t('admin.users.created')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((u) => (
              <tr key={u.id} data-user={u.email}>
                <td className="admin-email">
                  <Link className="link" to={`/admin/users/${encodeURIComponent(u.id)}`}>
                    {u.email}
                  </Link>
                </td>
                <td data-label={t('admin.users.name')}>{u.name}</td>
                <td data-label={t('admin.users.role')}>{u.is_admin ? t('admin.role.operator') : t('admin.role.member')}</td>
                <td data-label={t('admin.users.status')} className={u.disabled ? 'admin-off' : ''}>
                  {u.disabled ? t('admin.status.disabled') : t('admin.status.active')}
                </td>
                <td data-label={t('admin.users.storage')}>{t('admin.storageOf', { used: size(u.storage_usage), limit: size(u.storage_limit) })}</td>
                <td data-label={t('admin.users.created')}>
                  <time dateTime={u.created_time}>{formatDate(u.created_time, i18n.language)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {users.hasNextPage && (
        <p>
          <button className="btn" type="button" disabled={users.isFetchingNextPage} onClick={() => void users.fetchNextPage()}>
            {users.isFetchingNextPage ? t('common.loading') : t('audit.loadMore')}
          </button>
        </p>
      )}
    </section>
  );
}
