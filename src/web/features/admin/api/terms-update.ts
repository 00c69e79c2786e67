import { useMutation } from '@tanstack/react-query';
import { TermListItemSchema, type TermListItem, type UpdateTermInput } from '../../../../shared/schemas/terms';
import { api } from '../../../lib/api-client';
import { useRefreshAfterTermChange } from './terms';

/** PATCH /api/admin/terms/:id: the changed term; 409 when the name is taken or the dates overlap another term. */
export function updateTerm(id: string, changes: UpdateTermInput): Promise<TermListItem> {
  return api.patch(`/api/admin/terms/${encodeURIComponent(id)}`, changes, TermListItemSchema);
}

export function useUpdateTerm() {
  const refresh = useRefreshAfterTermChange();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateTermInput }) => updateTerm(id, changes),
    onSuccess: refresh,
  });
}
