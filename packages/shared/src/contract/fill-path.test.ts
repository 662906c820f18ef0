import { describe, expect, it } from 'vitest';
import { fillPath, pathPattern } from './fill-path.js';

describe('route paths', () => {
  it('fills parameters and literal colons, and matches what it fills', () => {
    const path = '/drive/v1/files/:id::star';
    expect(fillPath(path, { id: 'a b' })).toBe('/drive/v1/files/a%20b:star');
    expect(pathPattern(path).test(fillPath(path, { id: 'x1' }))).toBe(true);
    expect(pathPattern(path).test('/drive/v1/files/x1/y:star')).toBe(false);
    expect(pathPattern('/dav/*').test('/dav/a/b/c.txt')).toBe(true);
    expect(pathPattern('/v1/user/me').test('/v1/user/meX')).toBe(false);
  });
});
