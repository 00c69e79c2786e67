import { afterEach, describe, expect, it } from 'vitest';
import { showLanguage } from '../i18n/i18n';
import { formatCount, formatPercent } from './numbers';

afterEach(() => showLanguage('en'));

describe('numbers in each language', () => {
  it.each(['en', 'hi', 'te'] as const)('in %s: Latin digits with Indian grouping', async (language) => {
    await showLanguage(language);
    expect(formatCount(1234567)).toBe('12,34,567');
    expect(formatCount(999)).toBe('999');
    expect(formatPercent(87.5, 1)).toBe('87.5%');
    expect(formatPercent(66.666, 2)).toBe('66.67%');
  });
});
