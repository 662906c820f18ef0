import { describe, expect, it } from 'vitest';
import { haulOrigin } from './address';

describe('haulOrigin', () => {
  it('turns what a person types into the origin the API answers at', () => {
    expect(haulOrigin('haul.example.com')).toBe('https://haul.example.com');
    expect(haulOrigin(' https://haul.example.com/drive/all/abc?x=1 ')).toBe('https://haul.example.com');
    expect(haulOrigin('HTTP://Haul.Example.com:8080/')).toBe('http://haul.example.com:8080');
  });

  it('takes local addresses typed without a scheme as http', () => {
    expect(haulOrigin('localhost:8080')).toBe('http://localhost:8080');
    expect(haulOrigin('192.168.1.20:8080/drive')).toBe('http://192.168.1.20:8080');
    expect(haulOrigin('nas.local')).toBe('http://nas.local');
  });

  it('refuses what is no web address', () => {
    for (const typed of ['', '   ', 'ftp://haul.example.com', 'javascript:alert(1)', 'http://']) expect(haulOrigin(typed)).toBeNull();
  });
});
