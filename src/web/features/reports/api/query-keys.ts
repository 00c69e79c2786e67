/** Every report query sits under ['reports'], so one saved register can refresh them all. */
export const reportKeys = {
  all: ['reports'] as const,
  dashboard: ['reports', 'dashboard'] as const,
  students: (className: string | null, below: number | null) => ['reports', 'students', { className, below }] as const,
};
