import { useQueryClient } from '@tanstack/react-query';
import { studentRecordsKey } from '../../../components/student-record';
import { termsKey, useTerms } from '../../../lib/terms';

/** GET /api/terms: the list the terms page shows (the same query as every term picker). */
export function useTermList() {
  return useTerms();
}

/**
 * After a term is added or changed: the term pickers' list, and every report and record, whose
 * default term may now be another.
 */
export function useRefreshAfterTermChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: termsKey });
    // The reports feature keeps its queries under ['reports'] (features do not import each other).
    void queryClient.invalidateQueries({ queryKey: ['reports'] });
    void queryClient.invalidateQueries({ queryKey: studentRecordsKey });
  };
}
