/** Words for a failed call: the server's message (it is specific), a JSON description's title, or the client's own. */
import i18n from 'i18next';
import { isApiError, LOCAL_ERROR } from './api-error';

export function errorMessage(err: unknown): string {
  if (isApiError(err)) {
    // Some limits describe themselves as JSON with a title (seed 000 §8).
    // A limit's words in the reader's language (its numbers are in the limit dialog).
    if (err.body?.error_description?.startsWith('{') && i18n.exists(`limits.text.${err.code}`)) return i18n.t(`limits.text.${err.code}`);
    if (err.message.startsWith('{')) {
      try {
        const title = (JSON.parse(err.message) as { title?: string }).title;
        if (title) return title;
      } catch {
        /* not JSON after all */
      }
    }
    if (err.code !== LOCAL_ERROR && i18n.exists(`errors.${err.code}`) && !err.body?.error_description) return i18n.t(`errors.${err.code}`);
    return err.message;
  }
  if ((err as Error)?.name === 'AbortError') return '';
  return (err as Error)?.message || i18n.t('errors.operation_failed');
}
