/**
 * The words of each text message, per language (the mail's languages and pick, mail/messages.ts). Short, one
 * segment where the alphabet allows, and the code first, so a phone's notification shows it whole.
 */
import type { Locale } from '../mail/messages.js';
import type { SmsMessage } from './sms.js';

/** What a texted code is for. */
export type SmsPurpose = 'reset' | 'phone' | 'signin' | 'confirm' | 'deletion';

const EN_PURPOSE: Record<SmsPurpose, string> = {
  reset: 'reset your password',
  signin: 'sign in',
  phone: 'confirm this phone number',
  confirm: 'confirm it is you',
  deletion: 'delete your account',
};
const ZH_PURPOSE: Record<SmsPurpose, string> = {
  reset: '重置 Haul 密码',
  signin: '登录 Haul',
  phone: '验证 Haul 手机号',
  confirm: '确认 Haul 账号操作',
  deletion: '删除 Haul 账号',
};

const WORDS: Record<Locale, (code: string, purpose: SmsPurpose, minutes: number) => string> = {
  en: (code, purpose, minutes) => `${code} is your Haul code to ${EN_PURPOSE[purpose]}. Valid ${minutes} min. Never share it.`,
  'zh-CN': (code, purpose, minutes) => `${code} 是你${ZH_PURPOSE[purpose]}的验证码，${minutes} 分钟内有效，请勿告诉他人。`,
};

/** The text message carrying a verification code. */
export function codeText(input: { to: string; code: string; purpose: SmsPurpose; minutes: number; locale: Locale }): SmsMessage {
  return { to: input.to, body: WORDS[input.locale](input.code, input.purpose, input.minutes) };
}

const TAKEN: Record<Locale, string> = {
  en: 'Someone asked for a Haul code to add this phone number to an account, but it is already on one. Nothing changed.',
  'zh-CN': '有人请求把此手机号绑定到 Haul 账号，但它已绑定其他账号，没有任何改变。',
};

/** The text to a number someone tried to bind while another account has it: no code, and the truth. */
export function takenText(input: { to: string; locale: Locale }): SmsMessage {
  return { to: input.to, body: TAKEN[input.locale] };
}
