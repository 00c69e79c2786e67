import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Checkbox, Code, FileButton, Group, List, Paper, Progress, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconFileUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  FIRESTORE_SHAPES,
  FIRESTORE_UPLOAD_MAX_BYTES,
  type FirestoreImportResult,
  type FirestoreNoteList,
} from '../../../../shared/schemas/firestore-import';
import { FormFailure, FormSaved } from '../../../components/forms';
import { numberLocale } from '../../../i18n/i18n';
import { serverText } from '../../../i18n/server-text';
import { uploadFirestoreExport, type UploadProgress } from '../api/firestore-import';

const MAX_MB = FIRESTORE_UPLOAD_MAX_BYTES / (1024 * 1024);

/** The command that imports an export too large to upload. */
const IMPORT_COMMAND = 'npm run portal -- import firestore FILE';

/** What an import adds or would add, as a list in the language shown (firestoreImportSummary's). */
function importSummary(result: FirestoreImportResult, i18n: I18n): string {
  const registers = result.registers;
  const { total: marks, present, absent } = result.marks;
  const students = result.students;
  const { approved, pending } = result.profiles;
  const profiles = approved + pending;
  const parts = [
    msg`${plural(registers, { one: '# register', other: '# registers' })}`,
    msg`${plural(marks, { one: `# mark (${present} present, ${absent} absent)`, other: `# marks (${present} present, ${absent} absent)` })}`,
    msg`${plural(students, { one: '# student added to the roster', other: '# students added to the roster' })}`,
    msg`${plural(profiles, { one: `# profile (${approved} approved, ${pending} pending review)`, other: `# profiles (${approved} approved, ${pending} pending review)` })}`,
  ];
  if (result.classes.length > 0) {
    const classCount = result.classes.length;
    const classNames = result.classes.join(', ');
    parts.push(msg`${plural(classCount, { one: `# class (${classNames})`, other: `# classes (${classNames})` })}`);
  }
  return new Intl.ListFormat(numberLocale(), { type: 'unit', style: 'short' }).format(parts.map((part) => i18n._(part)));
}

/** The documents of an import's list, with the reason for each. */
function NoteTable({ list, label }: { list: FirestoreNoteList; label: string }) {
  const more = list.count - list.rows.length;
  return (
    <ScrollArea.Autosize type="auto" mah={320}>
      <Table verticalSpacing={4} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">
              <Trans>Document</Trans>
            </Table.Th>
            <Table.Th scope="col">
              <Trans>Reason</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.rows.map((note, index) => (
            <Table.Tr key={`${note.collection}/${note.id}/${index}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {note.collection}/{note.id}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{serverText(note.reason)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {list.count > list.rows.length && (
        <Text size="sm" c="dimmed" mt="xs">
          <Trans>… and {more} more (the command line lists them all).</Trans>
        </Text>
      )}
    </ScrollArea.Autosize>
  );
}

/** The file's documents and what the import adds or would add. */
function ImportFigures({ result }: { result: FirestoreImportResult }) {
  const { t, i18n } = useLingui();
  const { attendance, registrations, cards, other: otherDocuments } = result.documents;
  const summary = importSummary(result, i18n);
  const merged = result.merged;
  const alreadyImported = result.alreadyImported;
  // Whole sentences, with or without the documents of other collections.
  const held =
    otherDocuments > 0
      ? t`The export holds ${plural(attendance, { one: '# attendance document', other: '# attendance documents' })}, ${plural(registrations, { one: '# registration', other: '# registrations' })} and ${plural(cards, { one: '# card', other: '# cards' })}, and ${plural(otherDocuments, { one: '# document', other: '# documents' })} of other collections, which are left.`
      : t`The export holds ${plural(attendance, { one: '# attendance document', other: '# attendance documents' })}, ${plural(registrations, { one: '# registration', other: '# registrations' })} and ${plural(cards, { one: '# card', other: '# cards' })}.`;
  return (
    <List size="sm" spacing={4}>
      <List.Item>{held}</List.Item>
      <List.Item>{result.applied ? t`Added: ${summary}.` : t`It would add: ${summary}.`}</List.Item>
      {merged > 0 && (
        <List.Item>
          {t`${plural(merged, {
            one: '# attendance document is merged into another of the same class and date.',
            other: '# attendance documents are merged into another of the same class and date.',
          })}`}
        </List.Item>
      )}
      {alreadyImported > 0 && (
        <List.Item>
          {t`${plural(alreadyImported, {
            one: '# document was imported before and are left out.',
            other: '# documents were imported before and are left out.',
          })}`}
        </List.Item>
      )}
      {result.cards > 0 && (
        <List.Item>
          <Trans>Cards are counted and left: the portal has none.</Trans>
        </List.Item>
      )}
    </List>
  );
}

type Stage = { step: 'idle' } | { step: 'sending'; apply: boolean; progress: UploadProgress };

/** /admin/import: an export of the Firebase app checked, then imported in one go. */
export function ImportPage() {
  const { t, i18n } = useLingui();
  const [file, setFile] = useState<File | null>(null);
  const [createClasses, setCreateClasses] = useState(false);
  const [stage, setStage] = useState<Stage>({ step: 'idle' });
  const [checked, setChecked] = useState<FirestoreImportResult | null>(null);
  const [applied, setApplied] = useState<FirestoreImportResult | null>(null);
  const [failure, setFailure] = useState<{ title: string; message: string; nothingImported?: boolean } | null>(null);
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
        const summary = importSummary(result, i18n);
        notifications.show({ color: 'green', message: t`Imported: ${summary}.` });
      } else {
        setChecked(result);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setFailure(apply ? { title: t`Error importing the export`, message, nothingImported: true } : { title: t`Error checking the export`, message });
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
      const fileName = chosen.name;
      setFailure({
        title: t`The file is too large`,
        message: t`${fileName} is larger than ${MAX_MB} MB: import it on the server with ${IMPORT_COMMAND}.`,
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
  const fileName = file?.name ?? '';
  // The Firebase app's collections, by their names in the export.
  const attendanceCollection = 'attendance';
  const registrationsCollection = 'registrations';
  const cardsCollection = 'cards';
  const errorCount = checked?.errors.count ?? 0;
  const skippedCount = checked?.skipped.count ?? 0;
  const failureMessage = failure?.message ?? '';
  const sentShare =
    stage.step === 'sending' && stage.progress !== null
      ? new Intl.NumberFormat(numberLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(stage.progress)
      : '';
  const hasErrors = (checked?.errors.count ?? 0) > 0;
  const nothingToAdd =
    checked !== null && checked.registers === 0 && checked.students === 0 && checked.profiles.approved + checked.profiles.pending === 0;

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>
          <Trans>Import from the Firebase app</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>
            Bring over the registers, students and profiles of the app this portal replaces. The export is checked first and
            nothing changes until you apply it; then it is imported all at once, or not at all.
          </Trans>
        </Text>
      </Stack>

      <Stack gap="xs">
        <Text size="sm">
          <Trans>
            Choose an export of the <Code>{attendanceCollection}</Code>, <Code>{registrationsCollection}</Code> and{' '}
            <Code>{cardsCollection}</Code> collections, in one of these shapes (at most {MAX_MB} MB here; larger exports are
            imported with <Code>{IMPORT_COMMAND}</Code>):
          </Trans>
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
                <Trans>Choose an export file</Trans>
              </Button>
            )}
          </FileButton>
        </Group>
        <Checkbox
          checked={createClasses}
          onChange={(event) => toggleCreate(event.currentTarget.checked)}
          disabled={busy}
          label={t`Add the classes the export names that the portal does not have`}
          description={t`Otherwise a register of an unknown class stops the import, so that a misspelt class is not added by mistake.`}
        />
        {file && (
          <Text size="sm" aria-live="polite">
            <Trans>
              File: <strong>{fileName}</strong>
            </Trans>
          </Text>
        )}
      </Stack>

      {busy && (
        <Stack gap={4} role="status" aria-live="polite">
          <Text size="sm">
            {stage.progress === null
              ? stage.apply
                ? t`Importing… this takes a while for a large export; keep the page open.`
                : t`Checking the export…`
              : t`Sending the file: ${sentShare}`}
          </Text>
          <Progress
            value={stage.progress === null ? 100 : stage.progress * 100}
            animated={stage.progress === null}
            striped={stage.progress === null}
            aria-label={stage.progress === null ? (stage.apply ? t`Importing` : t`Checking`) : t`Sending the file`}
          />
        </Stack>
      )}

      {failure && (
        <FormFailure title={failure.title}>{failure.nothingImported ? t`${failureMessage} Nothing was imported.` : failure.message}</FormFailure>
      )}

      {applied && (
        <FormSaved title={t`Imported`}>
          <ImportFigures result={applied} />
        </FormSaved>
      )}

      {checked && file && !busy && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="md">
            <ImportFigures result={checked} />
            {hasErrors && (
              <Alert
                color="red"
                icon={<IconAlertCircle size={18} aria-hidden />}
                title={t`${plural(errorCount, { one: '# document stops the import', other: '# documents stop the import' })}`}
                role="alert"
              >
                <Text size="sm" mb="xs">
                  <Trans>Add the missing classes on the Classes page, or tick the box above to add them with the import.</Trans>
                </Text>
                <NoteTable list={checked.errors} label={t`What stops the import`} />
              </Alert>
            )}
            {checked.skipped.count > 0 && (
              <Stack gap="xs">
                <Title order={3} size="h4">
                  <Trans>Left out ({skippedCount})</Trans>
                </Title>
                <NoteTable list={checked.skipped} label={t`What the import leaves out`} />
              </Stack>
            )}
            <Group gap="sm">
              <Button onClick={() => void send(file, true, createClasses)} disabled={hasErrors || nothingToAdd}>
                <Trans>Import</Trans>
              </Button>
              {nothingToAdd && !hasErrors && (
                <Text size="sm" c="dimmed">
                  <Trans>The export adds nothing to what the portal has.</Trans>
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
