import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserQuestion } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { PinSchema } from '../../../shared/schemas/common';
import { ApiError } from '../../lib/api-client';
import { serverText } from '../../i18n/server-text';
import { LoadError, PartErrorBoundary } from '../load-states';
import type { TermChoice } from '../../lib/terms';
import { useStudentRecord } from './api';
import { TermSelect } from './term-select';

/**
 * The found student's record (profile, summary, subjects, history, corrections): its own chunk,
 * asked for as soon as a PIN is searched or the PIN box is entered, beside the record's request.
 */
function loadRecordView() {
  return import('./student-record-view');
}
const StudentRecordView = lazy(() => loadRecordView().then((module) => ({ default: module.StudentRecordView })));
const preloadRecordView = () => void loadRecordView().catch(() => undefined);

/** The search's words when a record cannot be fetched, in English (shown in the language of the page). */
export const FETCH_ERROR_MESSAGE = 'Error fetching student profile. Please try again.';

/**
 * The student search: a PIN box with Search and Clear (Enter searches), then the profile card,
 * attendance summary, Export to PDF and history of the student found, or the not-found and error
 * states.
 *
 * The searched PIN is controlled by the page, so that it can live in the URL:
 * - `pin`: the PIN whose record is shown; '' shows the idle state. When it changes (a link,
 *   Back), the box follows.
 * - `onSearch(pin)`: Search or Enter with a valid PIN (trimmed). Searching the shown PIN again
 *   asks the server again instead.
 * - `onClear()`: Clear was pressed; the box and messages are already reset.
 * - `term` and `onTermChange(term)`: the term the record covers, for a page that has its own
 *   term picker (the reports page). Without `onTermChange` the search shows its own picker
 *   ('Term', beside the PIN box) and starts on the server's default term.
 *
 * Wording, for screens that phrase it differently (defaults are those of /faculty and /student):
 * - `searchLabel` ('Search') and `searchingLabel` ('Search'): the button, and the button while loading.
 * - `loadingText` ('Loading student records...'): beside the spinner.
 * - `notFoundHint` ("If automatic search doesn't work, click on the search button."): the line
 *   under 'No student records found for PIN: {pin}'.
 * - `designationFallback` ('Student'): shown when the profile has no designation.
 * - `idleText`: shown before any search.
 * - `showForecast` (true): the summary's sentence on classes that can be missed or must be attended.
 */
export interface StudentSearchProps {
  pin: string;
  onSearch: (pin: string) => void;
  onClear: () => void;
  searchLabel?: string;
  searchingLabel?: string;
  loadingText?: string;
  notFoundHint?: string;
  designationFallback?: string;
  idleText?: ReactNode;
  showForecast?: boolean;
  term?: TermChoice;
  onTermChange?: (term: string) => void;
}

export function StudentSearch({
  pin,
  onSearch,
  onClear,
  searchLabel,
  searchingLabel,
  loadingText,
  notFoundHint,
  designationFallback,
  idleText,
  showForecast = true,
  term: pageTerm,
  onTermChange,
}: StudentSearchProps) {
  const { t } = useLingui();
  const inputId = useId();
  const [draft, setDraft] = useState(pin);
  const [inputError, setInputError] = useState<string | null>(null);
  // When the page changes the PIN (a shared link, Back), the box shows it: adjusted during
  // render, as React recommends for state derived from a prop.
  const [shownPin, setShownPin] = useState(pin);
  if (pin !== shownPin) {
    setShownPin(pin);
    setDraft(pin);
    setInputError(null);
  }
  const [ownTerm, setOwnTerm] = useState<TermChoice>(undefined);
  const ownPicker = onTermChange === undefined;
  const term = ownPicker ? ownTerm : pageTerm;
  const record = useStudentRecord(pin, term);
  useEffect(() => {
    if (pin !== '') preloadRecordView();
  }, [pin]);

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = PinSchema.safeParse(draft);
    if (!parsed.success) {
      const problem = parsed.error.issues[0]?.message;
      setInputError(problem ? serverText(problem) : t`Please enter a PIN number`);
      return;
    }
    setInputError(null);
    setDraft(parsed.data);
    if (parsed.data === pin) void record.refetch();
    else onSearch(parsed.data);
  };

  const clear = () => {
    setDraft('');
    setInputError(null);
    onClear();
  };

  const busy = pin !== '' && record.isFetching;

  return (
    <Stack gap="lg">
      <Group align="flex-start" gap="md" data-print-hide>
        <form role="search" aria-label={t`Student search`} onSubmit={search} noValidate style={{ flex: '1 1 320px' }}>
          <Text component="label" htmlFor={inputId} size="sm" fw={500} display="block" mb={4}>
            <Trans>PIN Number</Trans>
          </Text>
          <Group align="flex-start" gap="xs">
            <TextInput
              id={inputId}
              value={draft}
              onChange={(event) => {
                setDraft(event.currentTarget.value);
                if (inputError) setInputError(null);
              }}
              placeholder={t`e.g. 23A51A05301`}
              error={inputError}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              onFocus={preloadRecordView}
              style={{ flex: '1 1 200px' }}
            />
            <Group gap="xs" wrap="nowrap">
              <Button
                type="submit"
                leftSection={busy ? <Loader size={16} color="gray" aria-hidden /> : <IconSearch size={16} aria-hidden />}
                disabled={busy}
              >
                {busy ? (searchingLabel ?? t`Search`) : (searchLabel ?? t`Search`)}
              </Button>
              <Button type="button" variant="default" onClick={clear}>
                <Trans>Clear</Trans>
              </Button>
            </Group>
          </Group>
        </form>
        {ownPicker && <TermSelect value={ownTerm} shown={pin === '' ? undefined : record.data?.term} onChange={setOwnTerm} />}
      </Group>
      <SearchOutcome
        pin={pin}
        record={record}
        loadingText={loadingText ?? t`Loading student records...`}
        notFoundHint={notFoundHint ?? t`If automatic search doesn't work, click on the search button.`}
        designationFallback={designationFallback ?? t`Student`}
        idleText={idleText ?? t`Enter a student's PIN to see their profile and attendance.`}
        showForecast={showForecast}
        term={term}
      />
    </Stack>
  );
}

interface OutcomeProps {
  pin: string;
  record: ReturnType<typeof useStudentRecord>;
  loadingText: string;
  notFoundHint: string;
  designationFallback: string;
  idleText: ReactNode;
  showForecast: boolean;
  term: TermChoice;
}

function SearchOutcome({ pin, record, loadingText, notFoundHint, designationFallback, idleText, showForecast, term }: OutcomeProps) {
  const { t } = useLingui();
  const fetchError = t`Error fetching student profile. Please try again.`;
  if (pin === '') {
    return (
      <Text c="dimmed" role="status">
        {idleText}
      </Text>
    );
  }
  if (record.isPending) return <SearchLoading text={loadingText} />;
  if (record.isError) {
    const error = record.error;
    if (error instanceof ApiError && error.status === 404) {
      return (
        <Card withBorder radius="md" padding="xl" role="status">
          <Stack align="center" gap="xs" ta="center">
            <IconUserQuestion size={40} color="var(--mantine-color-gray-6)" aria-hidden />
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              <Trans>No student records found for PIN: {pin}</Trans>
            </Text>
            <Text c="dimmed" size="sm">
              {notFoundHint}
            </Text>
          </Stack>
        </Card>
      );
    }
    // A refusal (403), a PIN the server cannot accept (400) or a term that is gone (404 above is
    // the student's) says what is wrong; the rest is generic.
    const clientError = error instanceof ApiError && (error.status === 400 || error.status === 403);
    return (
      <LoadError message={clientError ? error.message : fetchError} onRetry={clientError ? undefined : () => void record.refetch()} />
    );
  }
  return (
    // The record's code that could not be loaded is said in the search's own words, with a reload
    // (a newer release has other file names), and the search stays.
    <PartErrorBoundary fallback={<LoadError message={fetchError} onRetry={() => window.location.reload()} />}>
      <Suspense fallback={<SearchLoading text={loadingText} />}>
        <StudentRecordView
          record={record.data}
          designationFallback={designationFallback}
          showForecast={showForecast}
          term={term}
          updating={record.isPlaceholderData}
        />
      </Suspense>
    </PartErrorBoundary>
  );
}

function SearchLoading({ text }: { text: string }) {
  return (
    <Center py="xl" role="status">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>{text}</Text>
      </Group>
    </Center>
  );
}
