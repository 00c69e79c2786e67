import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RosterImportResultSchema, type RosterImportResult } from '../../../../shared/schemas/roster';
import { postRosterCsv } from './roster-upload';

export interface ImportRosterInput {
  text: string;
  /** Withdraw the students on the roster whom the file leaves out (their history is kept). */
  withdraw: boolean;
}

/** Imports the file in one go; a file with problems is refused (RosterFileRefusal) and nothing changes. */
export function importRoster({ text, withdraw }: ImportRosterInput): Promise<RosterImportResult> {
  return postRosterCsv(`/api/admin/roster/import${withdraw ? '?withdraw=true' : ''}`, text, RosterImportResultSchema);
}

export function useImportRoster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importRoster,
    // Class sizes, registers, reports and the audit trail all read the roster: ask again.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
