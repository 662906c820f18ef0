/**
 * Saying how a send went: a notification with the sentence, and the toolbar badge — a count of links added for a
 * few seconds, or "!" until the popup is opened when it failed.
 */
import { t } from '../lib/i18n';
import type { SendResult } from '../lib/send-links';

const ADDED_COLOUR = '#1a7f37';
const FAILED_COLOUR = '#c62828';
const ADDED_SHOWN_MS = 5000;

export async function tell(result: SendResult): Promise<void> {
  const badge = result.ok ? `+${result.tasks.length || 1}` : '!';
  await chrome.action.setBadgeBackgroundColor({ color: result.ok ? ADDED_COLOUR : FAILED_COLOUR });
  await chrome.action.setBadgeText({ text: badge });
  if (result.ok) setTimeout(() => void chrome.action.setBadgeText({ text: '' }), ADDED_SHOWN_MS);
  try {
    await chrome.notifications.create({
      type: 'basic',
      iconUrl: chrome.runtime.getURL('icons/128.png'),
      title: result.ok ? t('sentTitle') : t('notSentTitle'),
      message: result.message,
    });
  } catch {
    // Notifications turned off for the browser: the badge still tells.
  }
}
