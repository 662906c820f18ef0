/**
 * The Telegram bot (/bot/tg-management, seed route `bot` → `tg-management`): link a Telegram account with a one-time
 * code (its t.me link, or a QR code of it for a phone), choose the folder what is sent to the bot lands in, unlink.
 * While a code is shown the page asks the server every few seconds, so it turns to "linked" once the bot got the code.
 */
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Breadcrumb, TelegramStatus } from '@haul/shared';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { formatTime } from '../files/format-time';
import { QrCode } from '../devices/qr-code';
import { FolderBrowser } from '../files/folder-picker';
import { TELEGRAM_KEY, getTelegramLink, makeTelegramCode, setTelegramFolder, unlinkTelegram } from './telegram-api';
import './telegram-page.css';

type Code = { code: string; url: string; expires_at: string };
const POLL_MS = 2_000;

export function TelegramPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState<Code | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const status = useQuery({
    queryKey: [TELEGRAM_KEY],
    queryFn: ({ signal }) => getTelegramLink(signal),
    // Waiting for the bot to receive the code: look again until it has.
    refetchInterval: (q) => (code && !q.state.data?.linked ? POLL_MS : false),
  });
  const data = status.data;
  const linkedNow = !!code && !!data?.linked;
  useEffect(() => {
    // The bot received the code: the page turns to the link, and says so.
    if (!linkedNow) return;
    setCode(null);
    toast.success(t('telegramBot.linkedToast', { name: data?.display_name ?? '' }));
  }, [linkedNow, data?.display_name, t]);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError('');
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const refresh = (next?: TelegramStatus) => (next ? queryClient.setQueryData([TELEGRAM_KEY], next) : queryClient.invalidateQueries({ queryKey: [TELEGRAM_KEY] }));

  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('telegramBot.title')}</h1>
      </div>
      <div className="account-form telegram-page">
        <p className="account-notice">{t('telegramBot.lead')}</p>
        {status.isPending && <p className="muted">{t('common.loading')}</p>}
        {status.isError && <FormError error={errorMessage(status.error)} />}
        {data && !data.enabled && <p className="account-notice warn">{t('telegramBot.notSetUp')}</p>}
        {data?.enabled && !data.linked && (
          <NotLinked
            code={code}
            bot={data.bot_username}
            busy={busy}
            onMake={() => act(async () => setCode(await makeTelegramCode()))}
          />
        )}
        {data?.enabled && data.linked && (
          <Linked
            status={data}
            busy={busy}
            onFolder={(id) => act(async () => {
              refresh(await setTelegramFolder(id));
              toast.success(t('telegramBot.folderSaved'));
            })}
            onUnlink={() => act(async () => {
              await unlinkTelegram();
              await refresh();
              toast.success(t('telegramBot.unlinkedToast'));
            })}
          />
        )}
        <FormError error={error} />
      </div>
    </section>
  );
}

function NotLinked({ code, bot, busy, onMake }: { code: Code | null; bot: string; busy: boolean; onMake: () => void }) {
  const { t, i18n } = useTranslation();
  if (!code) {
    return (
      <>
        <p>{t('telegramBot.notLinked')}</p>
        <div className="dialog-actions start">
          <button type="button" className="btn primary" disabled={busy} onClick={onMake}>
            {t('telegramBot.link')}
          </button>
        </div>
      </>
    );
  }
  return (
    <div className="telegram-code">
      <p>{code.url ? t('telegramBot.openLead') : t('telegramBot.sendLead', { bot: bot ? `@${bot}` : t('telegramBot.theBot') })}</p>
      <p className="telegram-code-value">
        <span className="muted">{t('telegramBot.codeLabel')}</span> <code aria-label={t('telegramBot.codeLabel')}>/start {code.code}</code>
      </p>
      {code.url && (
        <>
          <a className="btn primary" href={code.url} target="_blank" rel="noopener noreferrer">
            {t('telegramBot.openTelegram')}
          </a>
          <div className="telegram-qr">
            <QrCode text={code.url} label={t('telegramBot.qrLabel')} size={180} />
            <small className="muted">{t('telegramBot.qrHint')}</small>
          </div>
        </>
      )}
      <p className="muted" role="status">
        {t('telegramBot.waiting', { time: formatTime(code.expires_at, i18n.language) })}
      </p>
      <button type="button" className="btn" disabled={busy} onClick={onMake}>
        {t('telegramBot.newCode')}
      </button>
    </div>
  );
}

function Linked({ status, busy, onFolder, onUnlink }: { status: TelegramStatus; busy: boolean; onFolder: (id: string) => void; onUnlink: () => void }) {
  const { t, i18n } = useTranslation();
  const [choosing, setChoosing] = useState(false);
  const [path, setPath] = useState<Breadcrumb[]>([]);
  const here = path.at(-1);
  return (
    <>
      <dl className="telegram-facts">
        <dt>{t('telegramBot.account')}</dt>
        <dd>{status.display_name}</dd>
        <dt>{t('telegramBot.linkedAt')}</dt>
        <dd>{formatTime(status.linked_at, i18n.language)}</dd>
        <dt>{t('telegramBot.folder')}</dt>
        <dd data-testid="telegram-folder">{status.folder_name || t('nav.all')}</dd>
      </dl>
      {choosing ? (
        <div className="picker telegram-picker">
          <FolderBrowser path={path} onPath={setPath} />
          <div className="dialog-actions start">
            <button type="button" className="btn" onClick={() => setChoosing(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="btn primary"
              disabled={busy}
              onClick={() => {
                onFolder(here?.id ?? '');
                setChoosing(false);
              }}
            >
              {t('telegramBot.saveHere', { name: here?.name ?? t('nav.all') })}
            </button>
          </div>
        </div>
      ) : (
        <div className="dialog-actions start">
          <button type="button" className="btn" onClick={() => setChoosing(true)}>
            {t('telegramBot.chooseFolder')}
          </button>
          <button type="button" className="btn danger" disabled={busy} onClick={onUnlink}>
            {t('telegramBot.unlink')}
          </button>
        </div>
      )}
      <p className="muted">{t('telegramBot.howTo')}</p>
    </>
  );
}
