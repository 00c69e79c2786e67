/** Every report query sits under ['reports'], so one saved register can refresh them all. */
export const reportKeys = {
  all: ['reports'] as const,
  /** `term`: a term's id, `all`, or null for the server's default. */
  dashboard: (term: string | null) => ['reports', 'dashboard', { term }] as const,
  students: (className: string | null, below: number | null, term: string | null, subject: string | null = null) =>
    ['reports', 'students', { className, below, term, subject }] as const,
  subjects: (className: string | null, term: string | null) => ['reports', 'subjects', { className, term }] as const,
};
