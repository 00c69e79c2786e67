import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminClassSchema, type AdminClass, type CreateClassInput } from '../../../../shared/schemas/classes';
import { api } from '../../../lib/api-client';
import { invalidateAfterClassChange } from './classes';

/** POST /api/admin/classes: adds a class at the end of the order (201); 409 when the name is taken. */
export function createClass(input: CreateClassInput): Promise<AdminClass> {
  return api.post('/api/admin/classes', input, AdminClassSchema);
}

export function useCreateClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClass,
    onSuccess: () => invalidateAfterClassChange(queryClient),
  });
}
