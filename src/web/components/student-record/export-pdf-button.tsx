import { useLingui } from '@lingui/react/macro';
import { Button, Loader } from '@mantine/core';
import { IconFileDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { studentReportFilename } from '../../../shared/attendance-rules';
import { ButtonWithFailure, failureText } from '../forms';
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
  label,
  loadingLabel,
}: {
  pin: string;
  term?: TermChoice;
  label?: string;
  loadingLabel?: string;
}) {
  const { t } = useLingui();
  const download = useMutation({
    // The PIN travels as the variable, so a slow download is saved under the PIN it was asked for.
    mutationFn: ({ forPin, forTerm }: { forPin: string; forTerm: TermChoice }) => fetchStudentReport(forPin, forTerm),
    onSuccess: (blob, { forPin }) => saveFile(blob, studentReportFilename(forPin)),
  });
  const failure = download.error ? failureText(download.error, t`Error creating the PDF report. Please try again.`) : null;
  return (
    <ButtonWithFailure failure={failure}>
      {(describedBy) => (
        <Button
          variant="filled"
          leftSection={download.isPending ? <Loader size={16} color="gray" aria-hidden /> : <IconFileDownload size={18} aria-hidden />}
          disabled={download.isPending}
          onClick={() => download.mutate({ forPin: pin, forTerm: term })}
          aria-describedby={describedBy}
        >
          {download.isPending ? (loadingLabel ?? t`Preparing PDF...`) : (label ?? t`Export to PDF`)}
        </Button>
      )}
    </ButtonWithFailure>
  );
}
