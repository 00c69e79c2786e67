/** Every report query sits under ['reports'], so one saved register can refresh them all. */
export const reportKeys = {
  all: ['reports'] as const,
  /** `term`: a term's id, `all`, or null for the server's default. */
  dashboard: (term: string | null) => ['reports', 'dashboard', { term }] as const,
  students: (className: string | null, below: number | null, term: string | null) =>
    ['reports', 'students', { className, below, term }] as const,
};
