/**
 * Redeem codes (console's Plans and money): the codes made, never the codes themselves (only hashes are kept), with
 * what each grants, its uses, expiry and state; making codes, which shows them once in a box with "Copy all"; and
 * revoking one that has uses left (confirmed), after which it redeems no more.
 */
import { useQueryClient } from '@tanstack/react-query';
import { GrantSpecError, parseGrantSpec } from '@haul/shared/plain';
import type { MAX_CODES_PER_REQUEST } from '@haul/shared';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { PagedList } from '../../components/paged-list';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { useDialog } from '../../app/dialogs/dialog-store';
import { formatTime } from '../files/format-time';
import { copyText } from '../shares/share-format';
import { ADMIN_KEY } from './admin-api';
import { CODES_KEY, createCodes, listCodes, revokeCode, type AdminCode } from './admin-money-api';
import { codeState, codeStateText, grantsText } from './money-words';

/** The contract's most codes a request makes (MAX_CODES_PER_REQUEST), kept here without loading TypeBox. */
const MAX_COUNT: typeof MAX_CODES_PER_REQUEST = 500;

type Fields = { grant: string; count: string; uses: string; days: string; note: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

const whole = (v: string, min: number, max: number) => /^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max;

/** The codes just made, this once: copied whole, then dismissed (they are not shown again). */
function NewCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const box = useRef<HTMLElement>(null);
  useEffect(() => box.current?.focus(), []);
  const text = codes.join('\n');
  const copy = async () => {
    if (await copyText(text)) toast.success(t('adminMoney.codes.copied', { n: codes.length }));
    else toast.error(t('adminMoney.codes.copyFailed'));
  };
  return (
    <section ref={box} tabIndex={-1} className="money-new-codes" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('adminMoney.codes.newHeading', { n: codes.length })}</h3>
      <p className="money-warning" role="alert">
        {t('adminMoney.codes.shownOnce')}
      </p>
      <textarea readOnly className="money-codes-text" rows={Math.min(codes.length, 8)} value={text} aria-label={t('adminMoney.codes.newHeading', { n: codes.length })} onFocus={(e) => e.currentTarget.select()} />
      <div className="admin-actions">
        <button className="btn primary" type="button" onClick={() => void copy()}>
          {t('adminMoney.codes.copyAll')}
        </button>
        <button className="btn" type="button" onClick={onDone}>
          {t('adminMoney.codes.done')}
        </button>
      </div>
    </section>
  );
}

function MakeCodes({ onMade, onCancel }: { onMade: (codes: string[]) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [f, setF] = useState<Fields>({ grant: 'premium:30d', count: '1', uses: '1', days: '', note: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const { busy, error, submit } = useSubmit();
  const set = (change: Partial<Fields>) => {
    setF({ ...f, ...change });
    setFieldErrors({});
  };
  const send = async (e: FormEvent) => {
    e.preventDefault();
    const errors: FieldErrors = {};
    try {
      parseGrantSpec(f.grant);
    } catch (err) {
      if (!(err instanceof GrantSpecError)) throw err;
      errors.grant = t('adminMoney.badGrant');
    }
    if (!whole(f.count, 1, MAX_COUNT)) errors.count = t('adminMoney.codes.badCount', { max: MAX_COUNT });
    if (!whole(f.uses, 1, 1_000_000)) errors.uses = t('adminMoney.codes.badUses');
    if (f.days.trim() && !whole(f.days, 1, 3650)) errors.days = t('adminMoney.codes.badDays');
    setFieldErrors(errors);
    if (Object.keys(errors).length) return;
    await submit(async () => {
      const made = await createCodes({
        grant: f.grant.trim(),
        count: Number(f.count),
        max_uses: Number(f.uses),
        ...(f.days.trim() ? { expires_days: Number(f.days) } : {}),
        ...(f.note.trim() ? { note: f.note.trim() } : {}),
      });
      toast.success(t('adminMoney.codes.made', { n: made.codes.length }));
      onMade(made.codes);
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    }, errorMessage);
  };
  return (
    <form className="money-form" aria-label={t('adminMoney.codes.make')} onSubmit={send} noValidate>
      <TextField label={t('adminMoney.grantLabel')} hint={t('adminMoney.grantHint')} value={f.grant} error={fieldErrors.grant} autoComplete="off" onChange={(e) => set({ grant: e.target.value })} />
      <div className="money-form-row">
        <TextField label={t('adminMoney.codes.count')} value={f.count} error={fieldErrors.count} inputMode="numeric" autoComplete="off" onChange={(e) => set({ count: e.target.value })} />
        <TextField label={t('adminMoney.codes.uses')} hint={t('adminMoney.codes.usesHint')} value={f.uses} error={fieldErrors.uses} inputMode="numeric" autoComplete="off" onChange={(e) => set({ uses: e.target.value })} />
        <TextField label={t('adminMoney.codes.days')} hint={t('adminMoney.codes.daysHint')} value={f.days} error={fieldErrors.days} inputMode="numeric" autoComplete="off" onChange={(e) => set({ days: e.target.value })} />
      </div>
      <TextField label={t('adminMoney.codes.note')} value={f.note} maxLength={200} autoComplete="off" onChange={(e) => set({ note: e.target.value })} />
      <FormError error={error} />
      <div className="admin-actions">
        <button className="btn primary" type="submit" disabled={busy}>
          {t('adminMoney.codes.makeSubmit')}
        </button>
        <button className="btn" type="button" disabled={busy} onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function CodeCard({ c }: { c: AdminCode }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const openDialog = useDialog((s) => s.open);
  const state = codeState(c);
  const grants = grantsText(t, c.grants, i18n.language);
  const label = c.note || grants;
  const revoke = () =>
    openDialog({
      type: 'confirm',
      title: t('adminMoney.codes.revokeTitle'),
      body: t('adminMoney.codes.revokeBody', { grants, note: c.note || '-', used: c.used_count, max: c.max_uses }),
      confirmLabel: t('adminMoney.codes.revoke'),
      danger: true,
      onConfirm: () =>
        revokeCode(c.id).then(
          async () => {
            toast.success(t('adminMoney.codes.revokedDone'));
            await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
          },
          (err: unknown) => void toast.error(errorMessage(err)),
        ),
    });
  return (
    <li className={`money-card${state === 'live' ? '' : ' off'}`} aria-label={t('adminMoney.codes.cardLabel', { label, time: formatTime(c.created_time, i18n.language) })}>
      <div className="money-card-head">
        <strong>{grants}</strong>
        <span className={`admin-badge${state === 'live' ? '' : ' off'}`}>{codeStateText(t, state)}</span>
      </div>
      <dl className="money-facts">
        {c.note && (
          <>
            <dt>{t('adminMoney.codes.note')}</dt>
            <dd className="money-wrap">{c.note}</dd>
          </>
        )}
        <dt>{t('adminMoney.codes.usesLabel')}</dt>
        <dd>{t('adminMoney.codes.usedOf', { used: c.used_count, max: c.max_uses })}</dd>
        <dt>{t('adminMoney.codes.expires')}</dt>
        <dd>{c.expires_time ? formatTime(c.expires_time, i18n.language) : t('adminMoney.codes.never')}</dd>
        <dt>{t('adminMoney.codes.created')}</dt>
        <dd>{formatTime(c.created_time, i18n.language)}</dd>
      </dl>
      {/* Only a code that still works can be stopped: uses only count up and time only passes (the server still takes it). */}
      {state === 'live' && (
        <div className="admin-actions">
          <button className="btn" type="button" onClick={revoke}>
            {t('adminMoney.codes.revoke')}
          </button>
        </div>
      )}
    </li>
  );
}

export function CodesPanel() {
  const { t } = useTranslation();
  const headingId = useId();
  const [making, setMaking] = useState(false);
  const [made, setMade] = useState<string[] | null>(null);
  return (
    <section className="admin-card money-panel" aria-labelledby={headingId}>
      <div className="money-panel-head">
        <h2 id={headingId}>{t('adminMoney.codes.heading')}</h2>
        {!making && !made && (
          <button className="btn primary" type="button" onClick={() => setMaking(true)}>
            {t('adminMoney.codes.make')}
          </button>
        )}
      </div>
      {making && (
        <MakeCodes
          onMade={(codes) => {
            setMaking(false);
            setMade(codes);
          }}
          onCancel={() => setMaking(false)}
        />
      )}
      {made && <NewCodes codes={made} onDone={() => setMade(null)} />}
      <PagedList
        queryKey={CODES_KEY}
        load={listCodes}
        items={(p) => p.codes}
        itemKey={(c) => c.id}
        empty={t('adminMoney.codes.none')}
        className="money-list"
        label={t('adminMoney.codes.heading')}
        moreLabel={t('adminMoney.loadMore')}
        moreClassName="money-more"
      >
        {(c) => <CodeCard c={c} />}
      </PagedList>
    </section>
  );
}
