import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { isIsoDate } from '../../../../shared/dates';
import type { DayPeriod } from '../../../../shared/schemas/attendance';
import { useDayPeriods } from '../api/get-day-periods';
import { usePortalToday } from '../api/get-portal-today';

/**
 * Which register the page shows: `?period=` when given; otherwise, for a class with lectures that
 * day, the first one not taken yet (else the first), and for a class without, the whole day (0).
 * Null while the day's periods load.
 */
function choosePeriod(asked: string | null, periods: DayPeriod[] | undefined): number | null {
  if (asked !== null && /^\d{1,2}$/.test(asked)) return Number(asked);
  if (!periods) return null;
  const lectures = periods.filter((p) => p.period > 0);
  if (lectures.length === 0) return 0;
  return (lectures.find((p) => !p.submitted) ?? lectures[0]!).period;
}

/**
 * The register page's address: the class in the path, the day and the period in the query
 * (`?date=`, `?period=`, so that a link or a reload keeps them), and the ways to move to another
 * day or period. Without a date, the portal's today; cleared, there is no day until one is picked.
 * An extra lecture adds its subject (`?subject=CODE`): the one its register is taken for, where
 * the timetable gives that period another subject or none.
 */
export function useRegisterAddress() {
  const className = useParams().class ?? '';
  const today = usePortalToday();
  const [searchParams, setSearchParams] = useSearchParams();
  const [cleared, setCleared] = useState(false);
  const asked = searchParams.get('date');
  const date = cleared ? null : asked !== null && isIsoDate(asked) ? asked : (today.data?.date ?? null);
  const periods = useDayPeriods(className, date);
  const period = choosePeriod(searchParams.get('period'), periods.data);
  const extraSubject = (period !== null && period > 0 && searchParams.get('subject')?.trim()) || null;

  const change = (update: (params: URLSearchParams) => void) =>
    setSearchParams(
      (params) => {
        update(params);
        return params;
      },
      { replace: true },
    );
  const showPeriod = (next: number) =>
    change((params) => {
      params.set('period', String(next));
      // A period of the day's own: its subject is the timetable's, or the one it was taken for.
      params.delete('subject');
    });
  const showExtraLecture = (next: number, subject: string) =>
    change((params) => {
      params.set('period', String(next));
      params.set('subject', subject);
    });
  const pickDate = (next: string | null) => {
    setCleared(next === null);
    change((params) => {
      if (next === null) params.delete('date');
      else params.set('date', next);
      // Another day has other lectures: the picker chooses again.
      params.delete('period');
      params.delete('subject');
    });
  };

  return { className, today, date, periods, period, extraSubject, showPeriod, showExtraLecture, pickDate };
}

export type RegisterAddress = ReturnType<typeof useRegisterAddress>;
