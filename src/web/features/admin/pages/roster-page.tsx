import { Button, Checkbox, Code, FileButton, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ROSTER_UPLOAD_MAX_BYTES, type RosterImportResult } from '../../../../shared/schemas/roster';
import { FormFailure, FormSaved } from '../../../components/forms';
import { LoadError } from '../../../components/load-states';
import { saveFile } from '../../../lib/save-file';
import { fetchRosterCsv } from '../api/roster-export';
import { useImportRoster } from '../api/roster-import';
import { usePreviewRoster } from '../api/roster-preview';
import { RosterFileRefusal } from '../api/roster-upload';
import { RosterErrors } from '../components/roster-errors';
import { RosterPreviewTabs } from '../components/roster-preview';

const MAX_MB = ROSTER_UPLOAD_MAX_BYTES / (1024 * 1024);

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The counts of an import, as a sentence. */
export function importSummary(result: RosterImportResult): string {
  const parts = [
    `${result.added} added`,
    `${result.updated} updated`,
    `${result.moved} moved`,
    `${result.unchanged} unchanged`,
  ];
  if (result.withdrawn > 0) parts.push(`${result.withdrawn} withdrawn`);
  if (result.returned > 0) parts.push(`${plural(result.returned, 'withdrawn student', 'withdrawn students')} back`);
  if (result.accounts.created > 0) parts.push(`${plural(result.accounts.created, 'student account', 'student accounts')} created`);
  return parts.join(', ');
}

/** A chosen file's text, read with FileReader (which every browser, and jsdom, has). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file);
  });
}

interface ChosenFile {
  name: string;
  text: string;
}

/** /admin/roster: choose a CSV, see what it would change (and its problems by line), then apply it. */
export function RosterPage() {
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [withdraw, setWithdraw] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [applied, setApplied] = useState<RosterImportResult | null>(null);
  const resetRef = useRef<() => void>(null);
  const preview = usePreviewRoster();
  const apply = useImportRoster();
  const download = useMutation({
    mutationFn: fetchRosterCsv,
    onSuccess: (blob) => saveFile(blob, 'roster.csv'),
  });

  const choose = async (chosen: File | null) => {
    // Cleared, so that choosing the same file again (fixed in place) reads it again.
    resetRef.current?.();
    if (!chosen) return;
    setApplied(null);
    setReadError(null);
    setWithdraw(false);
    apply.reset();
    preview.reset();
    if (chosen.size > ROSTER_UPLOAD_MAX_BYTES) {
      setFile(null);
      setReadError(`${chosen.name} is larger than ${MAX_MB} MB: split it into several files and import them one after another.`);
      return;
    }
    let text: string;
    try {
      text = await readText(chosen);
    } catch {
      setFile(null);
      setReadError(`${chosen.name} could not be read. Choose it again.`);
      return;
    }
    setFile({ name: chosen.name, text });
    preview.mutate(text);
  };

  const runImport = () => {
    if (!file) return;
    setConfirming(false);
    apply.mutate(
      { text: file.text, withdraw },
      {
        onSuccess: (result) => {
          setApplied(result);
          setFile(null);
          setWithdraw(false);
          preview.reset();
          notifications.show({ color: 'green', message: `Roster imported: ${importSummary(result)}.` });
        },
      },
    );
  };

  const result = preview.data;
  const hasErrors = (result?.errors.length ?? 0) > 0;
  const notInFile = result?.notInFile.count ?? 0;
  const applyErrors = apply.error instanceof RosterFileRefusal ? apply.error.lineErrors : null;
  const canApply = file !== null && result !== undefined && !hasErrors && !apply.isPending;

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>Roster</Title>
        <Text c="dimmed" size="sm">
          Import the students of every class from a CSV file. You see what the file would change before anything is
          changed, and the file is applied all at once or not at all.
        </Text>
      </Stack>

      <Stack gap="xs">
        <Text size="sm">
          The file starts with the header <Code>pin,name,class</Code> (in any order), then one line per student. It may add
          an <Code>email</Code> column: each student with an e-mail gets a student account. At most {MAX_MB} MB.
        </Text>
        <Group gap="sm">
          <FileButton onChange={(chosen) => void choose(chosen)} accept=".csv,text/csv,text/plain" resetRef={resetRef}>
            {(props) => (
              <Button {...props} leftSection={<IconFileUpload size={18} aria-hidden />} loading={preview.isPending}>
                Choose a CSV file
              </Button>
            )}
          </FileButton>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => download.mutate()}
            loading={download.isPending}
          >
            Download the current roster
          </Button>
        </Group>
        {file && (
          <Text size="sm" aria-live="polite">
            File: <strong>{file.name}</strong>
          </Text>
        )}
        {download.isError && (
          <FormFailure>Error downloading the roster: {download.error.message}</FormFailure>
        )}
      </Stack>

      {readError && (
        <FormFailure>{readError}</FormFailure>
      )}

      {applied && (
        <FormSaved title="Roster imported">{importSummary(applied)}.</FormSaved>
      )}

      {preview.isPending && (
        <Group gap="xs" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Checking the file…</Text>
        </Group>
      )}

      {preview.isError && (
        <LoadError title="Error checking the file" message={preview.error.message} onRetry={file ? () => preview.mutate(file.text) : undefined} />
      )}

      {result && file && (
        <Stack gap="md">
          {hasErrors && <RosterErrors errors={result.errors} />}
          {applyErrors && <RosterErrors errors={applyErrors} />}
          {!hasErrors && (
            <Text size="sm">
              The file is ready to import: {result.added.count} added, {result.updated.count} updated, {result.moved.count} moved,{' '}
              {result.unchanged.count} unchanged, {result.notInFile.count} not in the file
              {result.accounts > 0 ? `, ${plural(result.accounts, 'e-mail', 'e-mails')} for student accounts` : ''}.
            </Text>
          )}
          {hasErrors && (
            <Text size="sm" c="dimmed">
              The lists below leave out the lines with problems.
            </Text>
          )}
          <RosterPreviewTabs key={file.name + file.text.length} preview={result} />
          {notInFile > 0 && (
            <Checkbox
              checked={withdraw}
              onChange={(event) => setWithdraw(event.currentTarget.checked)}
              label={`Withdraw the ${plural(notInFile, 'student', 'students')} not in the file`}
              description="They leave their class's register. Their past marks, profile and account are kept, and a later file that lists them brings them back."
            />
          )}
          {apply.isError && !applyErrors && (
            <FormFailure title="Error importing the roster">{apply.error.message} Nothing was changed.</FormFailure>
          )}
          <Group gap="sm">
            <Button
              onClick={() => (withdraw && notInFile > 0 ? setConfirming(true) : runImport())}
              disabled={!canApply}
              loading={apply.isPending}
            >
              Apply
            </Button>
            {hasErrors && (
              <Text size="sm" c="dimmed">
                Fix the problems to apply the file.
              </Text>
            )}
          </Group>
        </Stack>
      )}

      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Withdraw students">
        <Stack gap="md">
          <Text>
            Import the file and withdraw the {plural(notInFile, 'student', 'students')} not in it? They leave their class&apos;s
            register; their past marks, profile and account are kept.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="orange" onClick={runImport}>
              Import and withdraw
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

export default RosterPage;
