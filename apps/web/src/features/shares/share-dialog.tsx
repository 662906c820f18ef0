/** Share selected items as a link (public or with a pass code, for a chosen time), then copy the ready text. */
import './shares.css';
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { SHARE_EXPIRATION_DAYS } from '@haul/shared/plain';
import type { ShareEntry, ShareKind } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { Frame } from '../../app/dialogs/dialog-frame';
import type { DialogState } from '../../app/dialogs/dialog-store';
import { settleShares } from './use-shares';
import { copyText, expiryLeft, shareMessage } from './share-format';
import { createShare, shareStatusFor, updateShare } from './shares-api';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';

/** "7 days", "Forever": the validity choices. */
export function ValidityOptions() {
  const { t } = useTranslation();
  return (
    <>
      {SHARE_EXPIRATION_DAYS.map((d) => (
        <option key={d} value={d}>
          {d === -1 ? t('share.forever') : t('share.days', { count: d })}
        </option>
      ))}
    </>
  );
}

/** "Never expires", "3 days left", "5 hours left", "Expired". */
export function useExpiryText() {
  const { t } = useTranslation();
  return (e: ShareEntry) => {
    const left = expiryLeft(e);
    if (left === 'never') return t('share.neverExpires');
    if (!left) return t('share.expired');
    return 'days' in left ? t('share.daysLeft', { count: left.days }) : t('share.hoursLeft', { count: left.hours });
  };
}

/** The title a link gets when none is typed: the first item's name, with "(+n)" for more (as the server makes it). */
const defaultTitle = (files: { name: string }[]) => (files.length > 1 ? `${files[0]!.name} (+${files.length - 1})` : (files[0]?.name ?? ''));

export function ShareDialog({ d }: { d: Extract<DialogState, { type: 'share' | 'share-manage' }> }) {
  const { t } = useTranslation();
  const [entry, setEntry] = useState<ShareEntry | null>(d.type === 'share-manage' ? d.entry : null);
  // Items shared before show their link (and code) first; a second link is made only when asked for.
  const [looking, setLooking] = useState(d.type === 'share');
  const [fresh, setFresh] = useState(false);
  // Some of the items are on other links already: said before a new link is made.
  const [sharedCount, setSharedCount] = useState(0);
  const [previousId, setPreviousId] = useState<string | null>(null);
  useEffect(() => {
    if (d.type !== 'share') return;
    const ctrl = new AbortController();
    shareStatusFor(
      d.files.map((f) => f.id),
      ctrl.signal,
    )
      .then((found) => {
        if (ctrl.signal.aborted) return;
        if (found.entry) {
          setEntry(found.entry);
          setPreviousId(found.entry.share_id);
        }
        setSharedCount(found.sharedCount);
      })
      .catch(() => undefined)
      .finally(() => setLooking(false));
    return () => ctrl.abort();
  }, [d]);
  const [kind, setKind] = useState<ShareKind>('encryptedlink');
  const [days, setDays] = useState(7);
  const [phrase, setPhrase] = useState('');
  const [linkTitle, setLinkTitle] = useState('');
  const { busy, error, submit } = useSubmit();

  const run = (work: () => Promise<ShareEntry>) =>
    submit(async () => {
      setEntry(await work());
      await settleShares();
    }, errorMessage);

  const create = (e: FormEvent) => {
    e.preventDefault();
    if (d.type === 'share')
      void run(async () => {
        const made = await createShare(
          d.files.map((f) => f.id),
          kind,
          days,
          kind === 'encryptedlink' ? phrase : '',
          linkTitle,
        );
        setFresh(false);
        return made;
      });
  };

  const title = d.type === 'share' && d.files.length === 1 ? t('share.titleOne', { name: d.files[0]!.name }) : t('share.title');
  return (
    <Frame title={title}>
      {looking ? (
        <p className="muted">{t('common.loading')}</p>
      ) : entry && !fresh ? (
        <ShareResult
          entry={entry}
          before={entry.share_id === previousId}
          busy={busy}
          onChange={(change) => run(() => updateShare(entry.share_id, change))}
          onNewLink={d.type === 'share' ? () => setFresh(true) : undefined}
        />
      ) : (
        <form onSubmit={create}>
          {sharedCount > 0 && (
            <p className="muted" role="status">
              {t('share.someShared', { count: sharedCount })}
            </p>
          )}
          <label className="field">
            <span>{t('share.linkTitle')}</span>
            <input
              value={linkTitle}
              maxLength={255}
              autoComplete="off"
              placeholder={d.type === 'share' ? defaultTitle(d.files) : undefined}
              onChange={(e) => setLinkTitle(e.target.value)}
              aria-describedby="share-title-hint"
            />
            <small id="share-title-hint" className="muted">
              {t('share.linkTitleHint')}
            </small>
          </label>
          <fieldset className="field radio-group">
            <legend>{t('share.kind')}</legend>
            <label className="check-field">
              <input type="radio" name="kind" checked={kind === 'encryptedlink'} onChange={() => setKind('encryptedlink')} />
              {t('share.withCode')}
            </label>
            <label className="check-field">
              <input type="radio" name="kind" checked={kind === 'publiclink'} onChange={() => setKind('publiclink')} />
              {t('share.public')}
            </label>
          </fieldset>
          <label className="field">
            <span>{t('share.validity')}</span>
            <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
              <ValidityOptions />
            </select>
          </label>
          {kind === 'encryptedlink' && (
            <label className="field">
              <span>{t('share.phrase')}</span>
              <input value={phrase} maxLength={64} autoComplete="off" onChange={(e) => setPhrase(e.target.value)} aria-describedby="share-phrase-hint" />
              <small id="share-phrase-hint" className="muted">
                {t('share.phraseHint')}
              </small>
            </label>
          )}
          <FormError error={error} />
          <div className="dialog-actions">
            <Dialog.Close className="btn" type="button">
              {t('common.cancel')}
            </Dialog.Close>
            <button className="btn primary" type="submit" disabled={busy}>
              {t('share.create')}
            </button>
          </div>
        </form>
      )}
      {entry && <FormError error={error} />}
    </Frame>
  );
}

/** The link, its pass code and validity, with copy and the changes an owner makes later. */
function ShareResult({
  entry,
  before,
  busy,
  onChange,
  onNewLink,
}: {
  entry: ShareEntry;
  /** The link was made before (the items are shared already): said first. */
  before?: boolean;
  busy: boolean;
  onChange: (change: { kind?: ShareKind; expirationDays?: number; passCode?: string }) => void;
  /** Offered when the link shown was made before: make another one instead. */
  onNewLink?: () => void;
}) {
  const { t } = useTranslation();
  const expiry = useExpiryText();
  const message = shareMessage(entry, { link: t('share.link'), code: t('share.passCode') });
  const copy = async () => {
    if (await copyText(message)) toast.success(t('share.copied'));
    else toast.error(t('share.copyFailed'));
  };
  return (
    <div className="share-result">
      {before && (
        <p className="muted" role="status">
          {t('share.alreadyShared')}
        </p>
      )}
      <label className="field">
        <span>{t('share.link')}</span>
        <input readOnly value={entry.share_url} onFocus={(e) => e.currentTarget.select()} />
      </label>
      {entry.pass_code && (
        <div className="share-code">
          <span className="muted">{t('share.passCode')}</span>
          <strong data-testid="pass-code">{entry.pass_code}</strong>
          <button type="button" className="link" disabled={busy} onClick={() => onChange({ passCode: '' })}>
            {t('share.newCode')}
          </button>
        </div>
      )}
      {entry.phrase && (
        <div className="share-code">
          <span className="muted">{t('share.phrase')}</span>
          <strong data-testid="share-phrase">{entry.phrase}</strong>
        </div>
      )}
      <label className="field">
        <span>
          {t('share.validity')} · <span className="muted">{expiry(entry)}</span>
        </span>
        <select value={0} disabled={busy} onChange={(e) => onChange({ expirationDays: Number(e.target.value) })}>
          <option value={0}>{t('share.keepValidity')}</option>
          <ValidityOptions />
        </select>
      </label>
      <div className="dialog-actions">
        {onNewLink && (
          <button type="button" className="btn link-left" onClick={onNewLink}>
            {t('share.newLink')}
          </button>
        )}
        <Dialog.Close className="btn" type="button">
          {t('common.close')}
        </Dialog.Close>
        <button type="button" className="btn primary" onClick={() => void copy()}>
          {entry.pass_code ? t('share.copyLinkAndCode') : t('share.copyLink')}
        </button>
      </div>
    </div>
  );
}
