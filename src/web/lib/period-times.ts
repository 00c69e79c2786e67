import { useQuery } from '@tanstack/react-query';
import { PeriodTimeSchema, type PeriodTime } from '../../shared/schemas/alerts';
import { z } from '../../shared/schemas/zod';
import { api } from './api-client';

/** The cached period times sit under this key: an admin's change refreshes it. */
export const periodTimesKey = ['periods'] as const;

const PeriodTimeListSchema = z.array(PeriodTimeSchema);

/** GET /api/periods: the day's period times, by period (a period without times is not listed). */
export function fetchPeriodTimes(signal?: AbortSignal): Promise<PeriodTime[]> {
  return api.get('/api/periods', PeriodTimeListSchema, { signal });
}

/** The day's period times, for the admin's timetable and any page that shows a period's hours. */
export function usePeriodTimes() {
  return useQuery({ queryKey: periodTimesKey, queryFn: ({ signal }) => fetchPeriodTimes(signal) });
}
