import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PeriodTimeSchema, type PeriodTime, type PeriodTimes } from '../../../../shared/schemas/alerts';
import { z } from '../../../../shared/schemas/zod';
import { api } from '../../../lib/api-client';
import { periodTimesKey } from '../../../lib/period-times';

/** PUT /api/admin/periods: every period that has times (the others lose theirs); answers the saved list. */
export function putPeriodTimes(times: PeriodTimes): Promise<PeriodTime[]> {
  return api.put('/api/admin/periods', times, z.array(PeriodTimeSchema));
}

export function usePutPeriodTimes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putPeriodTimes,
    onSuccess: (saved) => queryClient.setQueryData(periodTimesKey, saved),
  });
}
