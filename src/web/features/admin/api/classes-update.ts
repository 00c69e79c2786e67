import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminClassSchema, type AdminClass, type UpdateClassInput } from '../../../../shared/schemas/classes';
import { api } from '../../../lib/api-client';
import { invalidateAfterClassChange } from './classes';

export interface UpdateClassVariables {
  /** The class's current name. */
  name: string;
  changes: UpdateClassInput;
}

/** PATCH /api/admin/classes/:name: rename, move, archive or restore; 404 unknown, 409 name taken. */
export function updateClass({ name, changes }: UpdateClassVariables): Promise<AdminClass> {
  return api.patch(`/api/admin/classes/${encodeURIComponent(name)}`, changes, AdminClassSchema);
}

export function useUpdateClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClass,
    onSettled: () => invalidateAfterClassChange(queryClient),
  });
}
