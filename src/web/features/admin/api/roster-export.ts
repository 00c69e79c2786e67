import { api } from '../../../lib/api-client';

/** The roster as it is now (withdrawn students left out), as the CSV the import reads. */
export function fetchRosterCsv(): Promise<Blob> {
  return api.blob('/api/admin/roster.csv', 'text/csv');
}
