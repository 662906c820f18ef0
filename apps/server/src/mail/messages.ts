/**
 * The words of every message Haul mails, per language, and the pick of a language: the request's `locale` when it
 * names one we have, else its Accept-Language, else English. HTML parts escape everything put into them.
 */
import type { MailMessage } from './mailer.js';

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** What a code is for, as the mail says it. */
export type CodePurpose = 'register' | 'reset' | 'change' | 'deletion' | 'confirm' | 'signin';

interface Words {
  subject: Record<CodePurpose, string>;
  /** The sentence before the code. */
  lead: Record<CodePurpose, string>;
  hello: (name: string) => string;
  expiry: (minutes: number) => string;
  /** Before a link to the page that takes the code (a reset's). */
  openPage: string;
  ignore: string;
}

const CATALOGUE: Record<Locale, Words> = {
  en: {
    subject: {
      register: 'Confirm your e-mail address for Haul',
      reset: 'Reset your Haul password',
      change: 'Confirm your new e-mail address for Haul',
      deletion: 'Confirm deleting your Haul account',
      confirm: 'Your Haul verification code',
      signin: 'Your Haul sign-in code',
    },
    lead: {
      register: 'Your code to create your Haul account is:',
      reset: 'Your code to reset your Haul password is:',
      change: 'Your code to make this your Haul e-mail address is:',
      deletion: 'Your code to delete your Haul account is:',
      confirm: 'Your Haul verification code is:',
      signin: 'Your code to sign in to Haul is:',
    },
    hello: (name) => (name ? `Hello ${name},` : 'Hello,'),
    expiry: (minutes) => `It expires in ${minutes} minutes and works once.`,
    openPage: 'Type it on this page, with your new password:',
    ignore: 'If you did not ask for it, ignore this message: nothing changes without the code.',
  },
  'zh-CN': {
    subject: {
      register: '确认你的 Haul 邮箱地址',
      reset: '重置你的 Haul 密码',
      change: '确认你的 Haul 新邮箱地址',
      deletion: '确认注销你的 Haul 账号',
      confirm: '你的 Haul 验证码',
      signin: '你的 Haul 登录验证码',
    },
    lead: {
      register: '你用于创建 Haul 账号的验证码是：',
      reset: '你用于重置 Haul 密码的验证码是：',
      change: '你用于把此地址设为 Haul 邮箱的验证码是：',
      deletion: '你用于注销 Haul 账号的验证码是：',
      confirm: '你的 Haul 验证码是：',
      signin: '你用于登录 Haul 的验证码是：',
    },
    hello: (name) => (name ? `${name}，你好：` : '你好：'),
    expiry: (minutes) => `验证码 ${minutes} 分钟内有效，只能使用一次。`,
    openPage: '请在此页面输入验证码并设置新密码：',
    ignore: '如果这不是你本人的操作，请忽略此邮件：没有验证码，什么都不会改变。',
  },
};

/** Our locale for a language tag (`zh-CN`, `zh_Hans`, `en-GB`), or null when we have none for it. */
function match(tag: string): Locale | null {
  const lang = tag.trim().toLowerCase().replace(/_/g, '-').split('-')[0];
  if (lang === 'zh') return 'zh-CN';
  if (lang === 'en') return 'en';
  return null;
}

/** The language of a message: the `locale` field, then Accept-Language by its q-values, then English. */
export function pickLocale(locale: string | undefined, acceptLanguage: string | undefined): Locale {
  const asked = locale ? match(locale) : null;
  if (asked) return asked;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q) };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const l of ranked) {
    const m = match(l.tag);
    if (m) return m;
  }
  return 'en';
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe to put into HTML, as element content or a quoted attribute. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The message carrying a verification code, in plain text and HTML; with `link`, the page to type it on. */
export function codeMessage(input: { to: string; name: string; code: string; purpose: CodePurpose; minutes: number; locale: Locale; link?: string }): MailMessage {
  const w = CATALOGUE[input.locale];
  const lines = [w.hello(input.name), w.lead[input.purpose], w.expiry(input.minutes), w.ignore];
  const page = input.link ? `${w.openPage}\n${input.link}\n\n` : '';
  const text = `${lines[0]}\n\n${lines[1]}\n\n    ${input.code}\n\n${page}${lines[2]}\n${lines[3]}\n`;
  const e = escapeHtml;
  const pageHtml = input.link ? `<p>${e(w.openPage)}<br><a href="${e(input.link)}">${e(input.link)}</a></p>\n` : '';
  const html = `<!doctype html>
<html lang="${e(input.locale)}"><head><meta charset="utf-8"><title>${e(w.subject[input.purpose])}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #222">
<p>${e(lines[0]!)}</p>
<p>${e(lines[1]!)}</p>
<p style="font-size: 28px; font-weight: 600; letter-spacing: 4px; font-family: ui-monospace, monospace">${e(input.code)}</p>
${pageHtml}<p>${e(lines[2]!)}<br>${e(lines[3]!)}</p>
</body></html>
`;
  return { to: input.to, subject: w.subject[input.purpose], text, html };
}

const CHANGED: Record<Locale, { subject: string; body: (address: string) => string; notYou: string }> = {
  en: {
    subject: 'Your Haul e-mail address was changed',
    body: (address) => `The e-mail address of your Haul account was changed to ${address}. Sign-in and codes now go to that address.`,
    notYou: 'If you did not do this, someone may be using your account: reset your password and sign out everywhere, or contact the operator of your Haul server.',
  },
  'zh-CN': {
    subject: '你的 Haul 邮箱地址已更改',
    body: (address) => `你的 Haul 账号邮箱已改为 ${address}。登录和验证码今后都使用该地址。`,
    notYou: '如果这不是你本人的操作，可能有人在使用你的账号：请重置密码并退出所有设备，或联系你的 Haul 服务器管理员。',
  },
};

/** The notice to the old address after the account's e-mail address changed. */
export function addressChangedMessage(input: { to: string; name: string; newAddress: string; locale: Locale }): MailMessage {
  const w = CATALOGUE[input.locale];
  const c = CHANGED[input.locale];
  return paragraphsMessage({ to: input.to, subject: c.subject, lines: [w.hello(input.name), c.body(input.newAddress), c.notYou], locale: input.locale });
}

/** A message of plain paragraphs, as text and as HTML (every line escaped). */
export function paragraphsMessage(input: { to: string; subject: string; lines: string[]; locale: Locale }): MailMessage {
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${e(input.locale)}"><head><meta charset="utf-8"><title>${e(input.subject)}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #222">
${input.lines.map((l) => `<p>${e(l)}</p>`).join('\n')}
</body></html>
`;
  return { to: input.to, subject: input.subject, text: `${input.lines.join('\n\n')}\n`, html };
}
