/**
 * Query keys of the attendance feature in one place: a save must refresh the register, its
 * history and the class list, so the three have to agree on their keys.
 */
export const attendanceKeys = {
  classes: ['classes'] as const,
  today: ['attendance', 'today'] as const,
  register: (className: string, date: string) => ['attendance', 'register', className, date] as const,
  history: (className: string, date: string) => ['attendance', 'register', className, date, 'history'] as const,
};

/** A class name or date as one safe path segment. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
