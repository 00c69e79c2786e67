import { Button, Stack, Text } from '@mantine/core';
import { IconDatabaseExport } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { personalDataFilename } from '../../../shared/schemas/personal-data';
import { api } from '../../lib/api-client';
import { saveFile } from '../../lib/save-file';
import { failureText } from '../forms';

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
  const errorId = useId();
  const download = useMutation({
    mutationFn: () => fetchPersonalData(pin, own),
    onSuccess: (blob) => saveFile(blob, personalDataFilename(pin)),
  });
  const failure = download.error ? failureText(download.error, 'Error preparing the data. Please try again.') : null;
  return (
    <Stack gap={4} align="flex-end">
      <Button
        variant="default"
        leftSection={<IconDatabaseExport size={16} aria-hidden />}
        loading={download.isPending}
        onClick={() => download.mutate()}
        aria-describedby={failure ? errorId : undefined}
      >
        {own ? 'Download my data' : 'Download all data'}
      </Button>
      {failure && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert" id={errorId}>
          {failure}
        </Text>
      )}
    </Stack>
  );
}
