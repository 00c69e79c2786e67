import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AttendanceRegisterSchema,
  type AttendanceRegister,
  type SaveAttendanceBody,
} from '../../../../shared/schemas/attendance';
import { api } from '../../../lib/api-client';
import { attendanceKeys, periodQuery, segment } from './query-keys';

export interface SaveRegisterInput {
  className: string;
  date: string;
  /** 0: the whole-day register. */
  period: number;
  body: SaveAttendanceBody;
}

/** Creates or replaces the register of a class on a date and period; answers with the saved register. */
export async function saveRegister({ className, date, period, body }: SaveRegisterInput): Promise<AttendanceRegister> {
  return api.put(`/api/attendance/${segment(className)}/${segment(date)}${periodQuery(period)}`, body, AttendanceRegisterSchema);
}

export function useSaveRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRegister,
    onSuccess: (saved, { className, date, period }) => {
      // The answer is the register as stored, so the screen shows it without asking again.
      queryClient.setQueryData(attendanceKeys.register(className, date, period), saved);
      // Not awaited: the success message should not wait for these refetches.
      void queryClient.invalidateQueries({ queryKey: attendanceKeys.history(className, date, period) });
      // The period picker's "taken" marks.
      void queryClient.invalidateQueries({ queryKey: attendanceKeys.periods(className, date) });
      // Another register's "Copy last register" may copy this one now.
      void queryClient.invalidateQueries({ queryKey: ['attendance', 'previous', className] });
      // The dashboard's "taken today" badge.
      void queryClient.invalidateQueries({ queryKey: attendanceKeys.classes });
    },
    // Refused (a colleague may have taken the day's whole-day register or lectures meanwhile): the
    // period picker shows the day as it is now.
    onError: (_error, { className, date }) => void queryClient.invalidateQueries({ queryKey: attendanceKeys.periods(className, date) }),
  });
}
