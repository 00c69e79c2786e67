import { describe, expect, it } from 'vitest';
import { safeReturnUrl } from './redirect';

describe('safeReturnUrl', () => {
  it('keeps paths inside the portal, with their query', () => {
    expect(safeReturnUrl('/attendance/CSE3?x=1')).toBe('/attendance/CSE3?x=1');
    expect(safeReturnUrl('/faculty?pin=23A51A05301#top')).toBe('/faculty?pin=23A51A05301#top');
  });
  it('refuses anything that could leave the portal or loop back to login', () => {
    for (const value of ['https://evil.example', '//evil.example', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', 'javascript:alert(1)', '/login?returnUrl=/x', '', null]) {
      expect(safeReturnUrl(value)).toBeNull();
    }
  });
});
