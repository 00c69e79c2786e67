import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SubjectSchema, type CreateSubjectInput, type Subject } from '../../../../shared/schemas/subjects';
import { api } from '../../../lib/api-client';
import { subjectsKey } from '../../../lib/subjects';

/** POST /api/admin/subjects: 201 with the subject; 409 when the code is taken. */
export function createSubject(input: CreateSubjectInput): Promise<Subject> {
  return api.post('/api/admin/subjects', input, SubjectSchema);
}

/** PATCH /api/admin/subjects/:code: a new name (the code never changes). */
export function renameSubject({ code, name }: { code: string; name: string }): Promise<Subject> {
  return api.patch(`/api/admin/subjects/${encodeURIComponent(code)}`, { name }, SubjectSchema);
}

/** After a change: the list, and the reports and timetables that name subjects. */
function useRefreshAfterSubjectChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: subjectsKey });
    void queryClient.invalidateQueries({ queryKey: ['timetable'] });
    void queryClient.invalidateQueries({ queryKey: ['reports'] });
  };
}

export function useCreateSubject() {
  const refresh = useRefreshAfterSubjectChange();
  return useMutation({ mutationFn: createSubject, onSuccess: refresh });
}

export function useRenameSubject() {
  const refresh = useRefreshAfterSubjectChange();
  return useMutation({ mutationFn: renameSubject, onSuccess: refresh });
}
