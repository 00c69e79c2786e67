import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Code, FileButton, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ROSTER_UPLOAD_MAX_BYTES, type RosterImportResult, type RosterPreview } from '../../../../shared/schemas/roster';
import { FormFailure, FormSaved } from '../../../components/forms';
import { LoadError } from '../../../components/load-states';
import { numberLocale } from '../../../i18n/i18n';
import { saveFile } from '../../../lib/save-file';
import { fetchRosterCsv } from '../api/roster-export';
import { useImportRoster } from '../api/roster-import';
import { usePreviewRoster } from '../api/roster-preview';
import { RosterFileRefusal } from '../api/roster-upload';
import { RosterErrors } from '../components/roster-errors';
import { RosterPreviewTabs } from '../components/roster-preview';

const MAX_MB = ROSTER_UPLOAD_MAX_BYTES / (1024 * 1024);

/** The counts of an import, as a list in the language shown ("1 added, 0 updated, …"). */
export function importSummary(result: RosterImportResult, i18n: I18n): string {
  const { added, updated, moved, unchanged, withdrawn, returned } = result;
  const created = result.accounts.created;
  const parts = [msg`${added} added`, msg`${updated} updated`, msg`${moved} moved`, msg`${unchanged} unchanged`];
  if (withdrawn > 0) parts.push(msg`${withdrawn} withdrawn`);
  if (returned > 0) parts.push(msg`${plural(returned, { one: '# withdrawn student back', other: '# withdrawn students back' })}`);
  if (created > 0) parts.push(msg`${plural(created, { one: '# student account created', other: '# student accounts created' })}`);
  return new Intl.ListFormat(numberLocale(), { type: 'unit', style: 'short' }).format(parts.map((part) => i18n._(part)));
}

/** What a file without problems would do, as a sentence. */
function readySummary(preview: RosterPreview, i18n: I18n): string {
  const added = preview.added.count;
  const updated = preview.updated.count;
  const moved = preview.moved.count;
  const unchanged = preview.unchanged.count;
  const notInFile = preview.notInFile.count;
  const accounts = preview.accounts;
  if (accounts === 0) {
    return i18n._(msg`The file is ready to import: ${added} added, ${updated} updated, ${moved} moved, ${unchanged} unchanged, ${notInFile} not in the file.`);
  }
  return i18n._(
    msg`${plural(accounts, {
      one: `The file is ready to import: ${added} added, ${updated} updated, ${moved} moved, ${unchanged} unchanged, ${notInFile} not in the file, # e-mail for student accounts.`,
      other: `The file is ready to import: ${added} added, ${updated} updated, ${moved} moved, ${unchanged} unchanged, ${notInFile} not in the file, # e-mails for student accounts.`,
    })}`,
  );
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
  const { t, i18n } = useLingui();
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
      const fileName = chosen.name;
      setReadError(t`${fileName} is larger than ${MAX_MB} MB: split it into several files and import them one after another.`);
      return;
    }
    let text: string;
    try {
      text = await readText(chosen);
    } catch {
      setFile(null);
      const fileName = chosen.name;
      setReadError(t`${fileName} could not be read. Choose it again.`);
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
          const summary = importSummary(result, i18n);
          notifications.show({ color: 'green', message: t`Roster imported: ${summary}.` });
        },
      },
    );
  };

  const result = preview.data;
  const hasErrors = (result?.errors.length ?? 0) > 0;
  const notInFile = result?.notInFile.count ?? 0;
  const applyErrors = apply.error instanceof RosterFileRefusal ? apply.error.lineErrors : null;
  const canApply = file !== null && result !== undefined && !hasErrors && !apply.isPending;
  const header = 'pin,name,class';
  const emailColumn = 'email';
  const fileName = file?.name ?? '';
  const downloadError = download.error?.message ?? '';
  const applyError = apply.error?.message ?? '';
  const appliedSummary = applied ? importSummary(applied, i18n) : '';

  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2}>
          <Trans>Roster</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>
            Import the students of every class from a CSV file. You see what the file would change before anything is
            changed, and the file is applied all at once or not at all.
          </Trans>
        </Text>
      </Stack>

      <Stack gap="xs">
        <Text size="sm">
          <Trans>
            The file starts with the header <Code>{header}</Code> (in any order), then one line per student. It may add an{' '}
            <Code>{emailColumn}</Code> column: each student with an e-mail gets a student account. At most {MAX_MB} MB.
          </Trans>
        </Text>
        <Group gap="sm">
          <FileButton onChange={(chosen) => void choose(chosen)} accept=".csv,text/csv,text/plain" resetRef={resetRef}>
            {(props) => (
              <Button {...props} leftSection={<IconFileUpload size={18} aria-hidden />} loading={preview.isPending}>
                <Trans>Choose a CSV file</Trans>
              </Button>
            )}
          </FileButton>
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => download.mutate()}
            loading={download.isPending}
          >
            <Trans>Download the current roster</Trans>
          </Button>
        </Group>
        {file && (
          <Text size="sm" aria-live="polite">
            <Trans>
              File: <strong>{fileName}</strong>
            </Trans>
          </Text>
        )}
        {download.isError && (
          <FormFailure>
            <Trans>Error downloading the roster: {downloadError}</Trans>
          </FormFailure>
        )}
      </Stack>

      {readError && (
        <FormFailure>{readError}</FormFailure>
      )}

      {applied && (
        <FormSaved title={t`Roster imported`}>{t`${appliedSummary}.`}</FormSaved>
      )}

      {preview.isPending && (
        <Group gap="xs" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden />
          <Text size="sm">
            <Trans>Checking the file…</Trans>
          </Text>
        </Group>
      )}

      {preview.isError && (
        <LoadError title={t`Error checking the file`} message={preview.error.message} onRetry={file ? () => preview.mutate(file.text) : undefined} />
      )}

      {result && file && (
        <Stack gap="md">
          {hasErrors && <RosterErrors errors={result.errors} />}
          {applyErrors && <RosterErrors errors={applyErrors} />}
          {!hasErrors && <Text size="sm">{readySummary(result, i18n)}</Text>}
          {hasErrors && (
            <Text size="sm" c="dimmed">
              <Trans>The lists below leave out the lines with problems.</Trans>
            </Text>
          )}
          <RosterPreviewTabs key={file.name + file.text.length} preview={result} />
          {notInFile > 0 && (
            <Checkbox
              checked={withdraw}
              onChange={(event) => setWithdraw(event.currentTarget.checked)}
              label={t`${plural(notInFile, { one: 'Withdraw the # student not in the file', other: 'Withdraw the # students not in the file' })}`}
              description={t`They leave their class's register. Their past marks, profile and account are kept, and a later file that lists them brings them back.`}
            />
          )}
          {apply.isError && !applyErrors && (
            <FormFailure title={t`Error importing the roster`}>
              <Trans>{applyError} Nothing was changed.</Trans>
            </FormFailure>
          )}
          <Group gap="sm">
            <Button
              onClick={() => (withdraw && notInFile > 0 ? setConfirming(true) : runImport())}
              disabled={!canApply}
              loading={apply.isPending}
            >
              <Trans>Apply</Trans>
            </Button>
            {hasErrors && (
              <Text size="sm" c="dimmed">
                <Trans>Fix the problems to apply the file.</Trans>
              </Text>
            )}
          </Group>
        </Stack>
      )}

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t`Withdraw students`}>
        <Stack gap="md">
          <Text>
            {t`${plural(notInFile, {
              one: "Import the file and withdraw the # student not in it? They leave their class's register; their past marks, profile and account are kept.",
              other: "Import the file and withdraw the # students not in it? They leave their class's register; their past marks, profile and account are kept.",
            })}`}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button color="orange" onClick={runImport}>
              <Trans>Import and withdraw</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

export default RosterPage;
