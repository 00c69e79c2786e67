/**
 * Query keys of the attendance feature in one place: a save must refresh the register, its
 * history and the class list, so the three have to agree on their keys.
 */
export const attendanceKeys = {
  classes: ['classes'] as const,
  today: ['attendance', 'today'] as const,
  register: (className: string, date: string, period = 0) => ['attendance', 'register', className, date, period] as const,
  history: (className: string, date: string, period = 0) => ['attendance', 'register', className, date, period, 'history'] as const,
  /** The register taken before this one: a save of any register of the class may change it. */
  previous: (className: string, date: string, period = 0) => ['attendance', 'previous', className, date, period] as const,
  /** A day's periods: the timetable's lectures and the registers taken. */
  periods: (className: string, date: string) => ['attendance', 'periods', className, date] as const,
};

/** `?period=N` for a lecture; nothing for the whole-day register (period 0), as the specification's URLs are. */
export function periodQuery(period: number): string {
  return period > 0 ? `?period=${period}` : '';
}

/** A class name or date as one safe path segment. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
