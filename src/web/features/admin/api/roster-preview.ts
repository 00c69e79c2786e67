import { useMutation } from '@tanstack/react-query';
import { RosterPreviewSchema, type RosterPreview } from '../../../../shared/schemas/roster';
import { postRosterCsv } from './roster-upload';

/** What importing the file would do, and its problems by line: nothing is changed. */
export function previewRoster(text: string): Promise<RosterPreview> {
  return postRosterCsv('/api/admin/roster/preview', text, RosterPreviewSchema);
}

export function usePreviewRoster() {
  return useMutation({ mutationFn: previewRoster });
}
