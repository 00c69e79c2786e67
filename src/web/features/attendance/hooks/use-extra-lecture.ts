import type { AttendanceRegister, DayPeriod } from '../../../../shared/schemas/attendance';
import { useSubjects } from '../../../lib/subjects';
import { withExtraLecture } from '../extra-lecture';

export interface ExtraLectureInput {
  /** The subject code in the address (`?subject=`), if any. */
  extraSubject: string | null;
  period: number | null;
  periods: DayPeriod[] | undefined;
  register: AttendanceRegister | undefined;
}

/**
 * The extra lecture on screen, if any: a register not taken yet is taken for the subject in the
 * address; once taken, a register keeps its own. Gives the subject the heading names, the day's
 * periods with the lecture among them (for the picker), and the subjects one may choose.
 */
export function useExtraLecture({ extraSubject, period, periods, register }: ExtraLectureInput) {
  const subjects = useSubjects();
  const extra =
    extraSubject && register && !register.submitted
      ? (subjects.data?.find((s) => s.code === extraSubject) ?? { code: extraSubject, name: extraSubject })
      : null;
  return {
    extra,
    subject: extra ?? register?.subject ?? null,
    dayPeriods: withExtraLecture(periods ?? [], period, extra),
    subjects: subjects.data ?? [],
  };
}
