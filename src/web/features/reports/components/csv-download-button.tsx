import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { CSV_BOM } from '../../../../shared/report-rules';

interface CsvDownloadButtonProps {
  /** Builds the file's text when clicked, from the same rows the table shows. */
  csv: () => string;
  filename: string;
  /** What is downloaded, for screen readers: 'Download the weekly report as CSV'. */
  label: string;
  disabled?: boolean;
}

export function CsvDownloadButton({ csv, filename, label, disabled }: CsvDownloadButtonProps) {
  const download = () => {
    // The BOM makes spreadsheet programs read names with accents as UTF-8.
    const blob = new Blob([CSV_BOM, csv()], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked on the next turn: some browsers start the download after click() returns.
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Button variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={download} disabled={disabled} aria-label={label}>
      CSV
    </Button>
  );
}
