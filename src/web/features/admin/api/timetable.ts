import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TimetableSchema, type SlotInput, type Timetable } from '../../../../shared/schemas/timetable';
import { api } from '../../../lib/api-client';

export const timetableKey = (className: string) => ['timetable', className] as const;

const path = (className: string) => `/api/classes/${encodeURIComponent(className)}/timetable`;

/** GET /api/classes/:class/timetable: the class's week. */
export function useTimetable(className: string) {
  return useQuery({ queryKey: timetableKey(className), queryFn: ({ signal }) => api.get(path(className), TimetableSchema, { signal }) });
}

/** PUT /api/admin/classes/:class/timetable: the whole week, replacing what the class had. */
export function putTimetable({ className, slots }: { className: string; slots: SlotInput[] }): Promise<Timetable> {
  return api.put(`/api/admin/classes/${encodeURIComponent(className)}/timetable`, { slots }, TimetableSchema);
}

export function usePutTimetable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putTimetable,
    onSuccess: (saved) => {
      queryClient.setQueryData(timetableKey(saved.class), saved);
      // The register page's period picker reads the day's periods.
      void queryClient.invalidateQueries({ queryKey: ['attendance', 'periods'] });
    },
  });
}
