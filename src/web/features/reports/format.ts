import type { Band } from '../../../shared/attendance-rules';
import { formatDayDate, formatDayMonth } from '../../lib/calendar-date';

/** Counts and percentages: the student record's, in the language shown's way of writing numbers. */
export { formatCount, formatPercent } from '../../lib/numbers';

/** A report row's day, with a short weekday: tables. */
export const formatLongDate = (isoDate: string) => formatDayDate(isoDate, 'short');
/** Day and month: chart axes. */
export const formatShortDate = formatDayMonth;

/**
 * Colours of the attendance bands (docs/product.md). Badges put dark text on the mid shades (above 7:1),
 * charts use the mid shades; text in a band's colour uses BAND_TEXT_COLORS (components/student-record).
 */
export const BAND_FILL: Record<Band, string> = { good: 'green.5', warning: 'yellow.5', danger: 'red.5' };
export const ABSENT_FILL = 'gray.4';
