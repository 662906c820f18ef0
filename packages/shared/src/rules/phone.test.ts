import { describe, expect, it } from 'vitest';
import { looksLikePhoneNumber } from './phone.js';
import { displayPhoneNumber, normalPhoneNumber } from './phone-numbers.js';
import { AVATAR_IDS, avatarPath, displayNameProblem } from './profile.js';

describe('phone numbers', () => {
  it('normalises valid international numbers to E.164', () => {
    expect(normalPhoneNumber('+1 (415) 555-2671')).toBe('+14155552671');
    expect(normalPhoneNumber(' +44 7911 123456 ')).toBe('+447911123456');
    expect(normalPhoneNumber('+86 138 0013 8000')).toBe('+8613800138000');
  });
  it('refuses numbers without a country code, too short, with letters or not in any plan', () => {
    expect(normalPhoneNumber('4155552671')).toBeNull();
    expect(normalPhoneNumber('+1234')).toBeNull();
    expect(normalPhoneNumber('+1 415 CALL NOW')).toBeNull();
    expect(normalPhoneNumber('+999 1234 5678')).toBeNull();
    expect(normalPhoneNumber('+1' + '5'.repeat(60))).toBeNull();
  });
  it('tells phone-like sign-in names from e-mail addresses', () => {
    expect(looksLikePhoneNumber('+1 415 555 2671')).toBe(true);
    expect(looksLikePhoneNumber('4155552671')).toBe(true);
    expect(looksLikePhoneNumber('ada@example.com')).toBe(false);
    expect(looksLikePhoneNumber('12345')).toBe(false);
  });
  it('displays a number the international way', () => {
    expect(displayPhoneNumber('+14155552671')).toBe('+1 415 555 2671');
  });
});

describe('profile', () => {
  it('checks display names', () => {
    expect(displayNameProblem('Ada Lovelace')).toBeNull();
    expect(displayNameProblem('')).toBe('empty');
    expect(displayNameProblem('x'.repeat(65))).toBe('too_long');
    expect(displayNameProblem('😀'.repeat(64))).toBeNull();
    expect(displayNameProblem('a\nb')).toBe('control');
    expect(displayNameProblem('evil\u202egnp.exe')).toBe('control');
  });
  it('maps built-in avatars to same-origin paths only', () => {
    expect(avatarPath(AVATAR_IDS[2])).toBe('/drive/avatars/3.svg');
    expect(avatarPath('avatar:99')).toBe('');
    expect(avatarPath('https://evil.example/x.svg')).toBe('');
    expect(avatarPath(null)).toBe('');
  });
});
