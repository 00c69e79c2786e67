import { statusOf, type MarkStatus } from '../../shared/attendance-rules';
import type { Database } from '../db/client';
import { recordPastRegister } from '../modules/attendance/service';

export interface SeedMark {
  pin: string;
  name: string;
  /** The mark's status; or `present` for the specification's present and absent. */
  status?: MarkStatus;
  present?: boolean;
  /** The class the student was in that day: the register's by default. */
  className?: string;
}

/**
 * Writes one past register with its marks and counters, as demo data does (no change history):
 * for tests that need history without going through the register screen's rules.
 */
export async function seedRegister(
  database: Database,
  register: { className: string; date: string; period?: number; subjectCode?: string | null; takenAt?: Date },
  marks: SeedMark[],
): Promise<void> {
  await database.db.transaction((tx) =>
    recordPastRegister(tx, {
      className: register.className,
      date: register.date,
      period: register.period ?? 0,
      subjectCode: register.subjectCode ?? null,
      takenBy: null,
      takenAt: register.takenAt ?? new Date(`${register.date}T10:00:00Z`),
      marks: marks.map((m) => ({
        pin: m.pin,
        name: m.name,
        className: m.className ?? register.className,
        status: m.status ?? statusOf(m.present ?? false),
      })),
    }),
  );
}
