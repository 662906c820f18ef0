/**
 * What a cloud download's row says beyond its phase: why it failed (a reason code of the server's in the reader's
 * words, or the limit it passed with its numbers), and how long a torrent has looked for peers and when it gives up.
 */
import { useEffect, useState } from 'react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatSize } from '@haul/shared/plain';
import type { DriveTask } from '@haul/shared';
import { asLimit, DIALOG_OF } from '../limits/limit-kinds';
import { neededWords } from '../limits/limit-dialog';
import { rememberLimitedTask } from '../limits/limited-tasks';
import { useLimitDialog } from '../limits/limit-store';

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}

/** The limit a failed download passed (`params.error`, its numbers in `params.limit`), or null. */
export const taskLimit = (task: DriveTask) => (task.phase === 'PHASE_TYPE_ERROR' ? asLimit(task.params.error, task.params.limit) : null);

/** Opens the limit dialog for a download a limit stopped; it is retried by itself once the limit is lifted. */
export function showTaskLimit(task: DriveTask): void {
  const limit = taskLimit(task);
  if (!limit) return;
  rememberLimitedTask({ kind: 'offline', id: task.id });
  useLimitDialog.getState().show({ type: DIALOG_OF[limit.code], code: limit.code, details: limit.details, taskId: task.id });
}

/** Why a download failed, in the reader's words; what the engine said stays in the row's details. */
export function failureWords(task: DriveTask): string {
  const limit = taskLimit(task);
  if (limit) return neededWords(limit.details, i18next.language) ?? i18next.t(`limits.text.${limit.code}`);
  const reason = task.params.reason;
  if (reason && i18next.exists(`cloud.reason.${reason}`)) return i18next.t(`cloud.reason.${reason}`);
  // A task failed before reasons were recorded: its message is all there is.
  return task.message || i18next.t('cloud.reason.unknown');
}

/** "· 2m 10s" since the torrent started looking, and the rule by which each try gives up, ticking each second. */
export function PeersWait({ task }: { task: DriveTask }) {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const since = Number(task.params.peers_since) || now;
  const stall = Number(task.params.stall_seconds) || 0;
  const rate = Number(task.params.min_rate) || 0;
  const rule = {
    time: duration(stall),
    rate: `${formatSize(rate, 0, i18n.language)}/s`,
    attempt: task.params.attempt ?? '1',
    attempts: task.params.attempts ?? '1',
  };
  return (
    <>
      {` · ${t('cloud.waited', { time: duration(Math.max(0, Math.floor((now - since) / 1000))) })}`}
      <span className="cloud-stall-rule" data-testid="stall-rule">
        {' · '}
        {rate > 0 ? t('cloud.stallRule', rule) : t('cloud.stallRuleNoFloor', rule)}
      </span>
    </>
  );
}
