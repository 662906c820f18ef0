/**
 * The audit log in words, for the operator's log and the person's security log alike: each action's name, who did it,
 * and what changed ("Storage limit: 10 GB → 50 GB"). Every key is written out in a `t` call so the key check finds it.
 */
import type { TFunction } from 'i18next';
import type { AuditAction } from '@haul/shared';
import type { AuditEvent } from './admin-api';
import { sizeText } from './storage-size';

/** One text per action: typed by the contract's list, so a new action cannot go without words. */
const ACTION_TEXT: Record<AuditAction, (t: TFunction) => string> = {
  'sign_in.new_network': (t) => t('audit.action.signInNewNetwork'),
  'password.changed': (t) => t('audit.action.passwordChanged'),
  'email.changed': (t) => t('audit.action.emailChanged'),
  'phone.changed': (t) => t('audit.action.phoneChanged'),
  'two_factor.enabled': (t) => t('audit.action.twoFactorEnabled'),
  'two_factor.disabled': (t) => t('audit.action.twoFactorDisabled'),
  'passkey.added': (t) => t('passkeys.audit.added'),
  'passkey.removed': (t) => t('passkeys.audit.removed'),
  'sign_in.passkey': (t) => t('passkeys.audit.signIn'),
  'app_password.created': (t) => t('audit.action.appPasswordCreated'),
  'app_password.revoked': (t) => t('audit.action.appPasswordRevoked'),
  'app.allowed': (t) => t('audit.action.appAllowed'),
  'sessions.ended': (t) => t('audit.action.sessionsEnded'),
  'account.deletion_requested': (t) => t('audit.action.deletionRequested'),
  'admin.user.updated': (t) => t('audit.action.adminUpdated'),
  'admin.user.signed_out': (t) => t('audit.action.adminSignedOut'),
  'admin.user.created': (t) => t('adminAccounts.audit.created'),
  'admin.user.password_reset_sent': (t) => t('adminAccounts.audit.resetSent'),
  'admin.user.granted': (t) => t('adminAccounts.audit.granted'),
  'admin.user.deleted': (t) => t('adminAccounts.audit.deleted'),
  'admin.share.moderated': (t) => t('audit.action.shareModerated'),
  'admin.blocked_words.changed': (t) => t('audit.action.blockedWordsChanged'),
  'admin.settings.changed': (t) => t('audit.action.settingsChanged'),
  'admin.product.saved': (t) => t('audit.action.productSaved'),
  'admin.product.retired': (t) => t('adminMoney.audit.productRetired'),
  'admin.order.refunded': (t) => t('adminMoney.audit.orderRefunded'),
  'admin.codes.created': (t) => t('adminMoney.audit.codesCreated'),
  'admin.code.revoked': (t) => t('adminMoney.audit.codeRevoked'),
  'admin.feedback.answered': (t) => t('feedback.audit.answered'),
  'admin.feedback.closed': (t) => t('feedback.audit.closed'),
  'admin.feedback.reopened': (t) => t('feedback.audit.reopened'),
  'admin.job.retried': (t) => t('adminHealth.audit.jobRetried'),
  'admin.report.handled': (t) => t('adminReports.audit.handled'),
  'admin.report.viewed': (t) => t('adminReports.audit.viewed'),
  'admin.report.from_feedback': (t) => t('adminReports.audit.fromFeedback'),
  'admin.file.marked': (t) => t('adminReports.audit.fileMarked'),
};

/** Every action, in the contract's order (the log's filter). */
export const AUDIT_ACTION_LIST = Object.keys(ACTION_TEXT) as AuditAction[];

const own = <T extends object>(table: T, key: string): key is Extract<keyof T, string> => Object.hasOwn(table, key);

/** The action in words; an action this client does not know yet, as the server names it. */
export const auditActionText = (t: TFunction, action: string): string => (own(ACTION_TEXT, action) ? ACTION_TEXT[action](t) : action);

/** Names of the fields an event's details mention. */
const FIELD_TEXT: Record<string, (t: TFunction) => string> = {
  storage_limit: (t) => t('audit.field.storageLimit'),
  disabled: (t) => t('audit.field.disabled'),
  is_admin: (t) => t('audit.field.isAdmin'),
  device: (t) => t('audit.field.device'),
  name: (t) => t('audit.field.name'),
  client_id: (t) => t('audit.field.app'),
  scope: (t) => t('audit.field.scope'),
  title: (t) => t('audit.field.share'),
  share_id: (t) => t('audit.field.shareId'),
  status: (t) => t('audit.field.status'),
  reason: (t) => t('audit.field.reason'),
  restore_limit: (t) => t('audit.field.restoreLimit'),
  count: (t) => t('audit.field.blockedWords'),
  feedback_id: (t) => t('feedback.audit.feedbackId'),
  // The operator's account work: the address made, mailed or deleted, and the plan granted.
  email: (t) => t('audit.field.email'),
  grant: (t) => t('adminAccounts.audit.grant'),
  // A job an operator retried (the System page's queues).
  kind: (t) => t('adminHealth.queues.kind'),
  job: (t) => t('audit.field.job'),
  new_job: (t) => t('audit.field.newJob'),
  state: (t) => t('adminHealth.processes.state'),
  // Run-time settings, named as the console's settings page names them.
  registration: (t) => t('admin.settings.fields.registration'),
  default_storage_bytes: (t) => t('admin.settings.fields.defaultStorage'),
  trash_retention_days: (t) => t('admin.settings.fields.trashDays'),
  free_daily_cloud_downloads: (t) => t('admin.settings.fields.dailyTasks'),
  premium_daily_cloud_downloads: (t) => t('admin.settings.fields.premiumDailyTasks'),
  free_cloud_download_max_bytes: (t) => t('admin.settings.fields.taskSize'),
  free_monthly_upload_bytes: (t) => t('admin.settings.fields.monthlyUpload'),
  free_monthly_cloud_download_bytes: (t) => t('admin.settings.fields.monthlyCloud'),
  free_monthly_download_bytes: (t) => t('admin.settings.fields.monthlyDownload'),
  free_daily_download_bytes: (t) => t('admin.settings.fields.dailyDownload'),
  free_max_resolution: (t) => t('admin.settings.fields.maxResolution'),
  webdav_premium_only: (t) => t('admin.settings.fields.webdavPremium'),
  decompression_premium_only: (t) => t('admin.settings.fields.decompressPremium'),
  invite_reward_days: (t) => t('admin.settings.fields.inviteDays'),
  invite_max_rewards: (t) => t('admin.settings.fields.inviteMax'),
  trial_days: (t) => t('trial.settingLabel'),
  site_name: (t) => t('admin.settings.fields.siteName'),
  // A report handled from the queue: which, the hold it put on the share, how many it closed.
  report_id: (t) => t('adminReports.audit.reportId'),
  hold: (t) => t('adminReports.audit.hold'),
  closed: (t) => t('adminReports.audit.closed'),
  file_id: (t) => t('adminReports.audit.file'),
  sensitive: (t) => t('adminReports.audit.notShareable'),
  // Plans and money: the product, order and code changed, what was refunded, how many codes and their uses.
  product: (t) => t('adminMoney.audit.product'),
  product_title: (t) => t('adminMoney.audit.productTitle'),
  codes: (t) => t('adminMoney.audit.codes'),
  price: (t) => t('adminMoney.audit.price'),
  currency: (t) => t('adminMoney.audit.currency'),
  order_id: (t) => t('adminMoney.audit.order'),
  amount: (t) => t('adminMoney.audit.amount'),
  code_id: (t) => t('adminMoney.audit.code'),
  max_uses: (t) => t('adminMoney.audit.maxUses'),
  expires_days: (t) => t('adminMoney.audit.expiresDays'),
  note: (t) => t('adminMoney.audit.note'),
  used: (t) => t('adminMoney.audit.used'),
};

/** A queued job's kind and the state it was retried from. */
const JOB_TEXT: Record<string, (t: TFunction) => string> = {
  offline: (t) => t('adminHealth.queues.offline'),
  decompress: (t) => t('adminHealth.queues.decompress'),
  transcode: (t) => t('adminHealth.queues.transcode'),
  failed: (t) => t('adminHealth.queues.failedOne'),
  stuck: (t) => t('adminHealth.queues.stuckOne'),
};

/** Who may sign up, in words. */
const REGISTRATION_TEXT: Record<string, (t: TFunction) => string> = {
  open: (t) => t('admin.settings.registrationOpen'),
  invite: (t) => t('admin.settings.registrationInvite'),
  closed: (t) => t('admin.settings.registrationClosed'),
};

/** A share's status as an operator sets it. */
const SHARE_STATUS_TEXT: Record<string, (t: TFunction) => string> = {
  OK: (t) => t('audit.shareStatus.ok'),
  AUDITING: (t) => t('audit.shareStatus.auditing'),
  PROHIBITED: (t) => t('audit.shareStatus.prohibited'),
  SENSITIVE_RESOURCE: (t) => t('audit.shareStatus.sensitiveResource'),
  SENSITIVE_WORD: (t) => t('audit.shareStatus.sensitiveWord'),
};

/** What a bare from/to of an action is about (the address or the phone number). */
const SUBJECT_OF: Partial<Record<AuditAction, (t: TFunction) => string>> = {
  'email.changed': (t) => t('audit.field.email'),
  'phone.changed': (t) => t('audit.field.phone'),
};

/** How a password changed. */
const BY_TEXT: Record<string, (t: TFunction) => string> = {
  reset: (t) => t('audit.passwordBy.reset'),
  account: (t) => t('audit.passwordBy.account'),
};

/** Browsers by their user agent's mark, the more specific first (Edge and Opera also say Chrome; Chrome says Safari). */
const BROWSERS: [RegExp, string][] = [
  [/^haul-cli\b/i, 'haul command line'],
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/(Chrome|CriOS)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** A device as people name it ("Chrome on Linux") from the user agent the sign-in came with; else its start. */
export function deviceText(t: TFunction, userAgent: string): string {
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser === 'haul command line') return browser;
  if (browser && system) return t('audit.browserOn', { browser, system });
  return browser ?? system ?? (userAgent.length > 60 ? `${userAgent.slice(0, 60)}…` : userAgent);
}

const isChange = (v: unknown): v is { from: unknown; to: unknown } => !!v && typeof v === 'object' && 'from' in v && 'to' in v;

/** One value in words: yes or no, a size for a storage limit, "none" for nothing. */
function valueText(t: TFunction, field: string, v: unknown, locale: string): string {
  if (typeof v === 'boolean') return v ? t('audit.yes') : t('audit.no');
  if (v === null || v === undefined || v === '') return t('audit.none');
  if ((field === 'storage_limit' || field.endsWith('_bytes')) && Number.isFinite(Number(v))) return sizeText(Number(v), locale);
  if (field === 'registration' && typeof v === 'string' && own(REGISTRATION_TEXT, v)) return REGISTRATION_TEXT[v]!(t);
  if ((field === 'kind' || field === 'state') && typeof v === 'string' && own(JOB_TEXT, v)) return JOB_TEXT[v]!(t);
  if (field === 'device' && typeof v === 'string') return deviceText(t, v);
  if (field === 'status' && typeof v === 'string' && own(SHARE_STATUS_TEXT, v)) return SHARE_STATUS_TEXT[v]!(t);
  if (field === 'restore_limit' && Number(v) === 0) return t('audit.noLimit');
  return typeof v === 'object' ? JSON.stringify(v) : String(v as string | number);
}

/** What changed, a line per field: "Storage limit: 10 GB → 50 GB", "Disabled: no → yes", "Device: Firefox on Linux". */
export function auditChangeLines(t: TFunction, e: Pick<AuditEvent, 'action' | 'details'>, locale: string): string[] {
  const d = e.details ?? {};
  const lines: string[] = [];
  const subject = own(SUBJECT_OF, e.action) ? SUBJECT_OF[e.action] : undefined;
  if (subject && 'from' in d && 'to' in d) {
    lines.push(t('audit.change', { field: subject(t), from: valueText(t, '', d.from, locale), to: valueText(t, '', d.to, locale) }));
  }
  for (const [key, v] of Object.entries(d)) {
    if (subject && (key === 'from' || key === 'to')) continue;
    if (key === 'by' && typeof v === 'string' && own(BY_TEXT, v)) {
      lines.push(BY_TEXT[v]!(t));
      continue;
    }
    const field = own(FIELD_TEXT, key) ? FIELD_TEXT[key]!(t) : key;
    if (isChange(v)) lines.push(t('audit.change', { field, from: valueText(t, key, v.from, locale), to: valueText(t, key, v.to, locale) }));
    else lines.push(t('audit.value', { field, value: valueText(t, key, v, locale) }));
  }
  return lines;
}

/** Who the log is read by: an operator (every account's events) or the person (their own). */
export type AuditReader = 'operator' | 'self';

/** Who did it: the person ("By you" in their own log), the server itself, or an operator by address. */
export function auditActorText(t: TFunction, e: Pick<AuditEvent, 'user_id' | 'actor_id' | 'actor_email'>, reader: AuditReader): string {
  if (!e.actor_id) return t('audit.actor.server');
  if (e.actor_id === e.user_id) return reader === 'self' ? t('audit.actor.you') : t('audit.actor.account');
  if (!e.actor_email) return t('audit.actor.anOperator');
  return reader === 'self' ? t('audit.actor.operator', { email: e.actor_email }) : t('audit.actor.email', { email: e.actor_email });
}
