import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Grid, Group, Stack } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { isAdmin, isStudent } from '../../../shared/access';
import type { HistoryEntry, StudentRecord } from '../../../shared/schemas/students';
import { useMe } from '../../lib/session';
import { ALL_TERMS, termDescription, type TermChoice } from '../../lib/terms';
import { useOlderHistory } from './api';
import { AttendanceHistoryTable } from './attendance-history-table';
import { AttendanceSummary } from './attendance-summary';
import { MyCorrections, useCorrectionCell } from './corrections';
import { EraseStudentButton } from './erase-student-button';
import { ExportDataButton } from './export-data-button';
import { ExportPdfButton } from './export-pdf-button';
import { ProfileCard } from './profile-card';
import { SubjectTable } from './subject-table';
import { TermOverview } from './term-overview';

// A chunk of its own (student-search.tsx loads it once a PIN is searched): the search box is on
// the first screen of three pages, the record with its tables, calendar and dialogs only after a
// search.

/**
 * A found student: profile card and summary side by side (stacked on phones), Export to PDF, then
 * the history.
 */
export function StudentRecordView({
  record,
  designationFallback,
  showForecast = true,
  term,
  updating = false,
}: {
  record: StudentRecord;
  designationFallback?: string;
  showForecast?: boolean;
  /** The term asked for; the PDF asks for the term on screen. */
  term?: TermChoice;
  /** True while another term's record is on its way: this one is shown meanwhile. */
  updating?: boolean;
}) {
  const { t } = useLingui();
  const profile = record.profile;
  const name = record.name;
  // A student looking at their own record may dispute a mark.
  const me = useMe();
  const own = isStudent(me.data) && me.data?.pin === record.pin;
  // The PDF covers what the screen shows: the term of the answer unless another was asked for.
  const pdfTerm = term ?? record.term?.id ?? ALL_TERMS;
  return (
    <Stack gap="md" aria-label={t`Attendance record of ${name}`} component="section" aria-busy={updating}>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <ProfileCard
            name={profile?.name ?? record.name}
            designation={profile?.designation}
            designationFallback={designationFallback}
            pin={record.pin}
            photoUrl={profile?.photoUrl}
            imageUrl={profile?.imageUrl}
            imageAlt={profile?.imageAlt}
            links={profile ?? undefined}
            email={profile?.email}
            phone={profile?.phone}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <AttendanceSummary summary={record.summary} showForecast={showForecast} caption={termDescription(record.term)} />
        </Grid.Col>
      </Grid>
      <Group justify="flex-end" data-print-hide>
        {/* The page itself prints as the report too. */}
        <Button variant="default" leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
          <Trans>Print</Trans>
        </Button>
        <ExportPdfButton key={record.pin} pin={record.pin} term={pdfTerm} />
        {(own || isAdmin(me.data)) && <ExportDataButton key={`data-${record.pin}`} pin={record.pin} own={own} />}
        {isAdmin(me.data) && !record.pin.startsWith('ERASED-') && (
          <EraseStudentButton key={`erase-${record.pin}`} pin={record.pin} name={profile?.name ?? record.name} />
        )}
      </Group>
      {record.subjects.length > 0 && <SubjectTable subjects={record.subjects} />}
      {own ? <OwnRecordCorrections record={record} term={term} /> : <PagedHistory record={record} term={term} />}
    </Stack>
  );
}

/** The student's own record: each mark can be disputed, and their requests show under it. */
function OwnRecordCorrections({ record, term }: { record: StudentRecord; term: TermChoice }) {
  const { cell, dialog } = useCorrectionCell();
  return (
    <>
      <TermOverview pin={record.pin} term={term} />
      <PagedHistory record={record} term={term} rowAction={cell} />
      <MyCorrections />
      {dialog}
    </>
  );
}

/** The record's first page of history, and older pages one "Show older" at a time. */
function PagedHistory({
  record,
  term,
  rowAction,
}: {
  record: StudentRecord;
  term: TermChoice;
  rowAction?: ((entry: HistoryEntry) => ReactNode) | undefined;
}) {
  const older = useOlderHistory(record.pin, term, record.nextBefore);
  const pages = older.data?.pages ?? [];
  const history = pages.length === 0 ? record.history : [...record.history, ...pages.flatMap((page) => page.history)];
  const hasMore = pages.length === 0 ? record.nextBefore !== null : older.hasNextPage;
  return (
    <AttendanceHistoryTable
      history={history}
      hasMore={hasMore}
      loadingMore={older.isFetching}
      onLoadMore={() => void (pages.length === 0 ? older.refetch() : older.fetchNextPage())}
      rowAction={rowAction}
    />
  );
}
