import { describe, expect, it } from 'vitest';
import { codeFromText } from './code-text';

describe('codeFromText', () => {
  it('keeps digits only, six at most', () => {
    expect(codeFromText('12a3')).toBe('123');
    expect(codeFromText('1234567')).toBe('123456');
  });
  it('takes the code out of a pasted line, spaced or not', () => {
    expect(codeFromText(' 123 456 ')).toBe('123456');
    expect(codeFromText('Your Haul code: 654-321. It works for 10 minutes.')).toBe('654321');
    expect(codeFromText('2025: 042917')).toBe('042917');
  });
});
