import { beforeAll, describe, expect, it } from 'vitest';
import i18n, { type TFunction } from 'i18next';
import { LOCALES } from '@haul/shared/plain';
import type { AuditEvent } from './admin-api';
import { AUDIT_ACTION_LIST, auditActionText, auditActorText, auditChangeLines, deviceText } from './audit-words';
import { GB, gbValue, parseGb, sizeText } from './storage-size';

const files = import.meta.glob<Record<string, unknown>>('../../locales/*.json', { eager: true, import: 'default' });
const resources = Object.fromEntries(LOCALES.map((l) => [l, { translation: files[`../../locales/${l}.json`]! }]));

beforeAll(async () => {
  await i18n.init({ resources, lng: 'en-US', fallbackLng: 'en-US', interpolation: { escapeValue: false } });
});

/** The app's `t`, read at each call so a language change shows. */
const tr: TFunction = ((...args: Parameters<TFunction>) => i18n.t(...args)) as TFunction;
const event = (action: AuditEvent['action'], details: Record<string, unknown>, who: Partial<AuditEvent> = {}): AuditEvent => ({
  id: 'e1',
  time: '2026-05-01T10:00:00Z',
  action,
  user_id: 'u1',
  user_email: 'u1@example.com',
  actor_id: 'u1',
  actor_email: '',
  ip: '203.0.113.9',
  details,
  ...who,
});

describe(auditChangeLines.name, () => {
  it("says an operator's change field by field: a storage limit in sizes, yes and no for the switches", () => {
    const e = event('admin.user.updated', {
      disabled: { from: false, to: true },
      is_admin: { from: true, to: false },
      storage_limit: { from: String(10 * GB), to: String(50 * GB) },
    });
    expect(auditChangeLines(tr, e, 'en-US')).toEqual(['Disabled: no → yes', 'Operator: yes → no', 'Storage limit: 10 GB → 50 GB']);
  });

  it('says a retried job in words: its kind, its ids and the state it left', () => {
    const e = event('admin.job.retried', { kind: 'offline', job: 't1', state: 'failed', new_job: 't2' });
    expect(auditChangeLines(tr, e, 'en-US')).toEqual(['Kind: Cloud downloads', 'Job: t1', 'State: Failed', 'New job: t2']);
  });

  it('names what a bare from/to is about, and "none" for an empty side', () => {
    expect(auditChangeLines(tr, event('email.changed', { from: 'a@example.com', to: 'b@example.com' }), 'en-US')).toEqual([
      'E-mail address: a@example.com → b@example.com',
    ]);
    expect(auditChangeLines(tr, event('phone.changed', { from: '', to: '+44 ••• ••• 3456' }), 'en-US')).toEqual(['Phone number: none → +44 ••• ••• 3456']);
  });

  it('says how a password changed, and the device, app or name an event names', () => {
    expect(auditChangeLines(tr, event('password.changed', { by: 'reset' }), 'en-US')).toEqual(['With a reset code']);
    expect(auditChangeLines(tr, event('password.changed', { by: 'account' }), 'en-US')).toEqual(["On the account's password page"]);
    const firefox = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
    expect(auditChangeLines(tr, event('sign_in.new_network', { device: firefox }), 'en-US')).toEqual(['Device: Firefox on Linux']);
    expect(auditChangeLines(tr, event('app.allowed', { client_id: 'photos', scope: 'user pan' }), 'en-US')).toEqual(['App: photos', 'Access: user pan']);
    expect(auditChangeLines(tr, event('app_password.created', { name: 'Laptop' }), 'en-US')).toEqual(['Name: Laptop']);
  });

  it("says an operator's hold on a share and a change of the blocked words", () => {
    const held = event('admin.share.moderated', {
      share_id: 'ab12',
      title: 'Holiday',
      status: { from: 'OK', to: 'PROHIBITED' },
      reason: 'Not ours to share',
      restore_limit: { from: 0, to: 5 },
    });
    expect(auditChangeLines(tr, held, 'en-US')).toEqual([
      'Link ID: ab12',
      'Share link: Holiday',
      'Status: available → prohibited',
      'Reason: Not ours to share',
      'Save limit: no limit → 5',
    ]);
    expect(auditChangeLines(tr, event('admin.blocked_words.changed', { count: { from: 3, to: 5 } }), 'en-US')).toEqual(['Blocked words: 3 → 5']);
  });

  it('shows a detail it has no words for as the server names it, and nothing for an event without details', () => {
    expect(auditChangeLines(tr, event('app_password.revoked', { id: 'ap1' }), 'en-US')).toEqual(['id: ap1']);
    expect(auditChangeLines(tr, event('sessions.ended', {}), 'en-US')).toEqual([]);
  });

  it("speaks the reader's language, sizes included", async () => {
    await i18n.changeLanguage('es');
    const e = event('admin.user.updated', { storage_limit: { from: String(2.5 * GB), to: String(100 * GB) }, disabled: { from: true, to: false } });
    expect(auditChangeLines(tr, e, 'es')).toEqual(['Límite de almacenamiento: 2,5 GB → 100 GB', 'Desactivada: sí → no']);
    expect(auditActionText(tr, 'admin.user.updated')).toBe('Cuenta cambiada por un operador');
    await i18n.changeLanguage('en-US');
  });
});

describe(auditActionText.name, () => {
  it('has words for every action, each its own', () => {
    const words = AUDIT_ACTION_LIST.map((a) => auditActionText(tr, a));
    expect(words.every((w, i) => w && w !== AUDIT_ACTION_LIST[i] && !w.startsWith('audit.'))).toBe(true);
    expect(new Set(words).size).toBe(words.length);
    expect(auditActionText(tr, 'sign_in.new_network')).toBe('Signed in from a new network');
    expect(auditActionText(tr, 'something.new')).toBe('something.new');
  });
});

describe(auditActorText.name, () => {
  it('names the account itself, an operator by address, or the server', () => {
    const own = event('password.changed', {});
    expect(auditActorText(tr, own, 'operator')).toBe('By the account itself');
    expect(auditActorText(tr, own, 'self')).toBe('By you');
    const byOperator = event('admin.user.updated', {}, { actor_id: 'op', actor_email: 'ops@example.com' });
    expect(auditActorText(tr, byOperator, 'operator')).toBe('By ops@example.com');
    expect(auditActorText(tr, byOperator, 'self')).toBe('By an operator (ops@example.com)');
    expect(auditActorText(tr, event('password.changed', {}, { actor_id: '' }), 'self')).toBe('By the server');
  });
});

describe(deviceText.name, () => {
  it('names the browser and the system a sign-in came from, the more specific browser first', () => {
    const edge = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0';
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    const headless = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
    expect(deviceText(tr, edge)).toBe('Edge on Windows');
    expect(deviceText(tr, iphone)).toBe('Safari on iOS');
    expect(deviceText(tr, headless)).toBe('Chrome on Linux');
    expect(deviceText(tr, 'haul-cli/1.0.0')).toBe('haul command line');
    expect(deviceText(tr, 'curl/8.0')).toBe('curl/8.0');
  });
});

describe('storage sizes', () => {
  it('writes whole sizes without decimals and reads what an operator types in GB', () => {
    expect(sizeText(10 * GB, 'en-US')).toBe('10 GB');
    expect(sizeText(2.5 * GB, 'en-US')).toBe('2.5 GB');
    expect(sizeText(0, 'en-US')).toBe('0 B');
    expect(gbValue(2.5 * GB)).toBe('2.5');
    expect(parseGb(' 50 ')).toEqual({ bytes: 50 * GB });
    expect(parseGb('2,5')).toEqual({ bytes: 2.5 * GB });
    expect(parseGb('0')).toEqual({ bytes: 0 });
    for (const bad of ['', 'ten', '-1', '1e3', '5 GB']) expect(parseGb(bad)).toEqual({ error: 'invalid' });
    expect(parseGb('2000000')).toEqual({ error: 'tooBig' });
  });
});
