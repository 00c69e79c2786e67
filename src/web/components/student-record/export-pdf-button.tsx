import { Button, Loader, Stack, Text } from '@mantine/core';
import { IconFileDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { studentReportFilename } from '../../../shared/attendance-rules';
import { failureText } from '../forms';
import { saveFile } from '../../lib/save-file';
import type { TermChoice } from '../../lib/terms';
import { fetchStudentReport } from './api';

/**
 * 'Export to PDF': downloads the server-built report attendance-{pin}.pdf.
 *
 * Props:
 * - `pin`: whose report; `term`: which term's (`?term=`; undefined: the server's default).
 * - `label`: the button text (default 'Export to PDF'); `loadingLabel` while it is being made
 *   (default 'Preparing PDF...').
 */
export function ExportPdfButton({
  pin,
  term,
  label = 'Export to PDF',
  loadingLabel = 'Preparing PDF...',
}: {
  pin: string;
  term?: TermChoice;
  label?: string;
  loadingLabel?: string;
}) {
  const errorId = useId();
  const download = useMutation({
    // The PIN travels as the variable, so a slow download is saved under the PIN it was asked for.
    mutationFn: ({ forPin, forTerm }: { forPin: string; forTerm: TermChoice }) => fetchStudentReport(forPin, forTerm),
    onSuccess: (blob, { forPin }) => saveFile(blob, studentReportFilename(forPin)),
  });
  const failure = download.error ? failureText(download.error, 'Error creating the PDF report. Please try again.') : null;
  return (
    <Stack gap={4} align="flex-end">
      <Button
        variant="filled"
        leftSection={download.isPending ? <Loader size={16} color="gray" aria-hidden /> : <IconFileDownload size={18} aria-hidden />}
        disabled={download.isPending}
        onClick={() => download.mutate({ forPin: pin, forTerm: term })}
        aria-describedby={failure ? errorId : undefined}
      >
        {download.isPending ? loadingLabel : label}
      </Button>
      {failure && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert" id={errorId}>
          {failure}
        </Text>
      )}
    </Stack>
  );
}
