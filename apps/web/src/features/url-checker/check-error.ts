/** A failed check in the reader's words: the cloud download reason the server named, or the limit and what to do. */
import i18next from 'i18next';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';

export function checkError(err: unknown, signedIn: boolean): string {
  if (isApiError(err, 'too_many_requests')) {
    const seconds = Number((err.body?.details?.[0] as { retry_after_seconds?: number } | undefined)?.retry_after_seconds) || 60;
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return signedIn ? i18next.t('urlChecker.tooMany', { count: minutes }) : i18next.t('urlChecker.tooManySignedOut', { count: minutes });
  }
  const reason = isApiError(err) ? (err.body?.details?.[0] as { reason?: string } | undefined)?.reason : undefined;
  if (reason && i18next.exists(`cloud.reason.${reason}`)) return i18next.t(`cloud.reason.${reason}`);
  return errorMessage(err);
}
