import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AttendanceRegisterSchema,
  type AttendanceRegister,
  type SaveAttendanceRequest,
} from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { attendanceKeys, segment } from './query-keys';

export interface SaveRegisterInput {
  className: string;
  date: string;
  body: SaveAttendanceRequest;
}

/** Creates or replaces the register of a class on a date; answers with the saved register. */
export async function saveRegister({ className, date, body }: SaveRegisterInput): Promise<AttendanceRegister> {
  return api.put(`/api/attendance/${segment(className)}/${segment(date)}`, body, AttendanceRegisterSchema);
}

export function useSaveRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRegister,
    onSuccess: (saved, { className, date }) => {
      // The answer is the register as stored, so the screen shows it without asking again.
      queryClient.setQueryData(attendanceKeys.register(className, date), saved);
      // Not awaited: the success message should not wait for these refetches.
      void queryClient.invalidateQueries({ queryKey: attendanceKeys.history(className, date) });
      // The dashboard's "taken today" badge.
      void queryClient.invalidateQueries({ queryKey: attendanceKeys.classes });
    },
  });
}
