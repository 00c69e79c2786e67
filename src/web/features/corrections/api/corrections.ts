import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from '../../../../shared/schemas/zod';
import type { MarkStatus } from '../../../../shared/attendance-rules';
import { CorrectionSchema } from '../../../../shared/schemas/corrections';
import { api } from '../../../lib/api-client';
import { correctionsKey } from '../../../lib/corrections';

/** Under the requests' key: a decision refreshes the count too. */
const countKey = [...correctionsKey, 'open-count'] as const;

/** How many requests wait: the count beside Corrections in the header (staff only). */
export function useOpenCorrectionCount(enabled: boolean) {
  return useQuery({
    queryKey: countKey,
    queryFn: ({ signal }) => api.get('/api/corrections/open-count', z.object({ open: z.number() }), { signal }),
    enabled,
    staleTime: 60_000,
  });
}

function useDecision<T>(path: (input: T) => string, body: (input: T) => object) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: T) => api.post(path(input), body(input), CorrectionSchema),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: correctionsKey });
      // The mark changed: every record, report and register reads it.
      void queryClient.invalidateQueries({ queryKey: ['students'] });
      void queryClient.invalidateQueries({ queryKey: ['attendance'] });
      void queryClient.invalidateQueries({ queryKey: ['reports'] });
    },
  });
}

export function useAcceptCorrection() {
  return useDecision<{ id: string; status: MarkStatus }>(
    ({ id }) => `/api/corrections/${encodeURIComponent(id)}/accept`,
    ({ status }) => ({ status }),
  );
}

export function useDeclineCorrection() {
  return useDecision<{ id: string; reply: string }>(
    ({ id }) => `/api/corrections/${encodeURIComponent(id)}/decline`,
    ({ reply }) => ({ reply }),
  );
}
