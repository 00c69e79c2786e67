import type { Band } from '../../../shared/attendance-rules';

const counts = new Intl.NumberFormat('en');
const longDate = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export const formatCount = (value: number) => counts.format(value);

// Dates are calendar days in the portal's zone; formatting them at UTC midnight keeps the day as it is.
const atUtcMidnight = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`);

/** 'Mon, 2 Mar 2026': tables. */
export const formatLongDate = (isoDate: string) => longDate.format(atUtcMidnight(isoDate));
/** '2 Mar': chart axes. */
export const formatShortDate = (isoDate: string) => shortDate.format(atUtcMidnight(isoDate));

/**
 * Colours of the bands of SPEC.md section 4. Badges put dark text on the mid shades (above 7:1),
 * charts use the mid shades; text in a band's colour uses BAND_TEXT_COLORS (components/student-record).
 */
export const BAND_FILL: Record<Band, string> = { good: 'green.5', warning: 'yellow.5', danger: 'red.5' };
export const ABSENT_FILL = 'gray.4';
