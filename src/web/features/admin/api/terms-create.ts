import { useMutation } from '@tanstack/react-query';
import { TermListItemSchema, type CreateTermInput, type TermListItem } from '../../../../shared/schemas/terms';
import { api } from '../../../lib/api-client';
import { useRefreshAfterTermChange } from './terms';

/** POST /api/admin/terms: 201 with the term; 409 when the name is taken or the dates overlap another term. */
export function createTerm(input: CreateTermInput): Promise<TermListItem> {
  return api.post('/api/admin/terms', input, TermListItemSchema);
}

export function useCreateTerm() {
  const refresh = useRefreshAfterTermChange();
  return useMutation({ mutationFn: createTerm, onSuccess: refresh });
}
