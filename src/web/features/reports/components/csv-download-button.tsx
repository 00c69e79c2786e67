import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { CSV_BOM } from '../../../../shared/report-rules';
import { saveFile } from '../../../lib/save-file';

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
    saveFile(new Blob([CSV_BOM, csv()], { type: 'text/csv;charset=utf-8' }), filename);
  };
  return (
    <Button variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={download} disabled={disabled} aria-label={label}>
      CSV
    </Button>
  );
}
