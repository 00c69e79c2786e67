import { useMutation } from '@tanstack/react-query';
import { OpenedCheckinSchema, type OpenCheckinRequest, type OpenedCheckin } from '../../../../shared/schemas/checkins';
import { api } from '../../../lib/api-client';

/** POST /api/checkins: a self check-in of today's register (decision 45); its projector view is /checkin/:id. */
export function useOpenCheckin() {
  return useMutation({
    mutationFn: (body: OpenCheckinRequest): Promise<OpenedCheckin> => api.post('/api/checkins', body, OpenedCheckinSchema),
  });
}
