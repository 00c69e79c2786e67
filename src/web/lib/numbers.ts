import { numberLocale } from '../i18n/i18n';

/*
 * The figures of a student's record and of the reports, written as the language shown writes
 * numbers (docs/i18n.md): Indian grouping and Latin digits in every language.
 */

const formats = new Map<string, Intl.NumberFormat>();

/** Numbers as the language shown writes them (Indian grouping, Latin digits), `decimals` fixed when given. */
function numberFormat(decimals?: 0 | 1 | 2): Intl.NumberFormat {
  const locale = numberLocale();
  const key = `${locale}|${decimals ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, decimals === undefined ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formats.set(key, format);
  }
  return format;
}

/** A count: days, lectures, marks, students. */
export const formatCount = (value: number) => numberFormat().format(value);

/** A percentage with fixed decimals (1 on the record and tiles, 2 in report tables, 0 in charts): '87.5%'. */
export const formatPercent = (value: number, decimals: 0 | 1 | 2) => `${numberFormat(decimals).format(value)}%`;
