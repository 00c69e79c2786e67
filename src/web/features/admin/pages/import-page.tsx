import { Alert, Button, Checkbox, Code, FileButton, Group, List, Paper, Progress, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconFileUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  FIRESTORE_SHAPES,
  FIRESTORE_UPLOAD_MAX_BYTES,
  firestoreImportSummary,
  type FirestoreImportResult,
  type FirestoreNoteList,
} from '../../../../shared/schemas/firestore-import';
import { FormFailure, FormSaved } from '../../../components/forms';
import { uploadFirestoreExport, type UploadProgress } from '../api/firestore-import';

const MAX_MB = FIRESTORE_UPLOAD_MAX_BYTES / (1024 * 1024);

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The documents of an import's list, with the reason for each. */
function NoteTable({ list, label }: { list: FirestoreNoteList; label: string }) {
  return (
    <ScrollArea.Autosize type="auto" mah={320}>
      <Table verticalSpacing={4} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Document</Table.Th>
            <Table.Th scope="col">Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.rows.map((note, index) => (
            <Table.Tr key={`${note.collection}/${note.id}/${index}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {note.collection}/{note.id}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{note.reason}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.count > list.rows.length && (
        <Text size="sm" c="dimmed" mt="xs">
          … and {list.count - list.rows.length} more (the command line lists them all).
        </Text>
      )}
    </ScrollArea.Autosize>
  );
}

/** The file's documents and what the import adds or would add. */
function ImportFigures({ result }: { result: FirestoreImportResult }) {
  const { documents } = result;
  return (
    <List size="sm" spacing={4}>
      <List.Item>
        The export holds {plural(documents.attendance, 'attendance document', 'attendance documents')},{' '}
        {plural(documents.registrations, 'registration', 'registrations')} and {plural(documents.cards, 'card', 'cards')}
        {documents.other > 0 ? `, and ${plural(documents.other, 'document', 'documents')} of other collections, which are left` : ''}.
      </List.Item>
      <List.Item>
        {result.applied ? 'Added' : 'It would add'}: {firestoreImportSummary(result)}.
      </List.Item>
      {result.merged > 0 && (
        <List.Item>{plural(result.merged, 'attendance document is', 'attendance documents are')} merged into another of the same class and date.</List.Item>
      )}
      {result.alreadyImported > 0 && <List.Item>{plural(result.alreadyImported, 'document was', 'documents were')} imported before and are left out.</List.Item>}
      {result.cards > 0 && <List.Item>Cards are counted and left: the portal has none.</List.Item>}
    </List>
  );
}

type Stage = { step: 'idle' } | { step: 'sending'; apply: boolean; progress: UploadProgress };

/** /admin/import: an export of the Firebase app checked, then imported in one go. */
export function ImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [createClasses, setCreateClasses] = useState(false);
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [checked, setChecked] = useState<FirestoreImportResult | null>(null);
  const [applied, setApplied] = useState<FirestoreImportResult | null>(null);
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const resetRef = useRef<() => void>(null);
  const queryClient = useQueryClient();

  const send = async (chosen: File, apply: boolean, create: boolean) => {
    setFailure(null);
    setStage({ step: 'sending', apply, progress: 0 });
    try {
      const result = await uploadFirestoreExport({ file: chosen, apply, createClasses: create }, (progress) =>
        setStage({ step: 'sending', apply, progress }),
      );
      if (apply) {
        setApplied(result);
        setChecked(null);
        setFile(null);
        // Registers, the roster, classes, profiles and the audit trail all changed: ask again.
        await queryClient.invalidateQueries();
        notifications.show({ color: 'green', message: `Imported: ${firestoreImportSummary(result)}.` });
      } else {
        setChecked(result);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setFailure({ title: apply ? 'Error importing the export' : 'Error checking the export', message });
    } finally {
      setStage({ step: 'idle' });
    }
  };

  const choose = (chosen: File | null) => {
    resetRef.current?.();
    if (!chosen) return;
    setApplied(null);
    setChecked(null);
    setFailure(null);
    if (chosen.size > FIRESTORE_UPLOAD_MAX_BYTES) {
      setFile(null);
      setFailure({
        title: 'The file is too large',
        message: `${chosen.name} is larger than ${MAX_MB} MB: import it on the server with npm run portal -- import firestore FILE.`,
      });
      return;
    }
    setFile(chosen);
    void send(chosen, false, createClasses);
  };

  const toggleCreate = (value: boolean) => {
    setCreateClasses(value);
    if (file) void send(file, false, value);
  };

  const busy = stage.step === 'sending';
  const hasErrors = (checked?.errors.count ?? 0) > 0;
  const nothingToAdd =
    checked !== null && checked.registers === 0 && checked.students === 0 && checked.profiles.approved + checked.profiles.pending === 0;

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>Import from the Firebase app</Title>
        <Text c="dimmed" size="sm">
          Bring over the registers, students and profiles of the app this portal replaces. The export is checked first and
          nothing changes until you apply it; then it is imported all at once, or not at all.
        </Text>
      </Stack>

      <Stack gap="xs">
        <Text size="sm">
          Choose an export of the <Code>attendance</Code>, <Code>registrations</Code> and <Code>cards</Code> collections, in
          one of these shapes (at most {MAX_MB} MB here; larger exports are imported with{' '}
          <Code>npm run portal -- import firestore FILE</Code>):
        </Text>
        <List size="sm" spacing={4}>
          {Object.values(FIRESTORE_SHAPES).map((shape) => (
            <List.Item key={shape}>
              <Code>{shape}</Code>
            </List.Item>
          ))}
        </List>
        <Group gap="sm">
          <FileButton onChange={choose} accept=".json,.ndjson,.jsonl,application/json,application/x-ndjson" resetRef={resetRef}>
            {(props) => (
              <Button {...props} leftSection={<IconFileUpload size={18} aria-hidden />} disabled={busy}>
                Choose an export file
              </Button>
            )}
          </FileButton>
        </Group>
        <Checkbox
          checked={createClasses}
          onChange={(event) => toggleCreate(event.currentTarget.checked)}
          disabled={busy}
          label="Add the classes the export names that the portal does not have"
          description="Otherwise a register of an unknown class stops the import, so that a misspelt class is not added by mistake."
        />
        {file && (
          <Text size="sm" aria-live="polite">
            File: <strong>{file.name}</strong>
          </Text>
        )}
      </Stack>

      {busy && (
        <Stack gap={4} role="status" aria-live="polite">
          <Text size="sm">
            {stage.progress === null
              ? stage.apply
                ? 'Importing… this takes a while for a large export; keep the page open.'
                : 'Checking the export…'
              : `Sending the file: ${Math.round(stage.progress * 100)}%`}
          </Text>
          <Progress
            value={stage.progress === null ? 100 : stage.progress * 100}
            animated={stage.progress === null}
            striped={stage.progress === null}
            aria-label={stage.progress === null ? (stage.apply ? 'Importing' : 'Checking') : 'Sending the file'}
          />
        </Stack>
      )}

      {failure && (
        <FormFailure title={failure.title}>
          {failure.message}
          {failure.title === 'Error importing the export' ? ' Nothing was imported.' : ''}
        </FormFailure>
      )}

      {applied && (
        <FormSaved title="Imported">
          <ImportFigures result={applied} />
        </FormSaved>
      )}

      {checked && file && !busy && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="md">
            <ImportFigures result={checked} />
            {hasErrors && (
              <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} title={`${plural(checked.errors.count, 'document stops', 'documents stop')} the import`} role="alert">
                <Text size="sm" mb="xs">
                  Add the missing classes on the Classes page, or tick the box above to add them with the import.
                </Text>
                <NoteTable list={checked.errors} label="What stops the import" />
              </Alert>
            )}
            {checked.skipped.count > 0 && (
              <Stack gap="xs">
                <Title order={3} size="h4">
                  Left out ({checked.skipped.count})
                </Title>
                <NoteTable list={checked.skipped} label="What the import leaves out" />
              </Stack>
            )}
            <Group gap="sm">
              <Button onClick={() => void send(file, true, createClasses)} disabled={hasErrors || nothingToAdd}>
                Import
              </Button>
              {nothingToAdd && !hasErrors && (
                <Text size="sm" c="dimmed">
                  The export adds nothing to what the portal has.
                </Text>
              )}
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

export default ImportPage;
