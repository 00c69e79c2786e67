import { useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { IconDatabaseExport } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { personalDataFilename } from '../../../shared/schemas/personal-data';
import { api } from '../../lib/api-client';
import { saveFile } from '../../lib/save-file';
import { ButtonWithFailure, failureText } from '../forms';

/**
 * GET /api/me/export (the student's own) or /api/admin/students/:pin/export (an admin's view):
 * everything the portal holds about the student, as one JSON file.
 */
export function fetchPersonalData(pin: string, own: boolean): Promise<Blob> {
  return api.blob(own ? '/api/me/export' : `/api/admin/students/${encodeURIComponent(pin)}/export`, 'application/json');
}

/**
 * 'Download my data' on a student's own record, 'Download all data' on an admin's view of a
 * student: saves personal-data-{pin}.json.
 */
export function ExportDataButton({ pin, own }: { pin: string; own: boolean }) {
  const { t } = useLingui();
  const download = useMutation({
    mutationFn: () => fetchPersonalData(pin, own),
    onSuccess: (blob) => saveFile(blob, personalDataFilename(pin)),
  });
  const failure = download.error ? failureText(download.error, t`Error preparing the data. Please try again.`) : null;
  return (
    <ButtonWithFailure failure={failure}>
      {(describedBy) => (
        <Button
          variant="default"
          leftSection={<IconDatabaseExport size={16} aria-hidden />}
          loading={download.isPending}
          onClick={() => download.mutate()}
          aria-describedby={describedBy}
        >
          {own ? t`Download my data` : t`Download all data`}
        </Button>
      )}
    </ButtonWithFailure>
  );
}
