import { Trans, useLingui } from '@lingui/react/macro';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { StudentSearch, usePinSearchParam } from '../../../components/student-record';
import type { TermChoice } from '../../../lib/terms';

const STUDENT_SEARCH_ID = 'student-search';

/**
 * The faculty-details student search: the shared search with this page's
 * wording. The PIN lives in the URL (?pin=), so the rows of the students-below list open a record
 * here, and Back returns to the previous one. The record covers the page's term, chosen with the
 * page's picker.
 */
export function StudentSearchSection({ term, onTermChange }: { term: TermChoice; onTermChange: (term: string) => void }) {
  const { t } = useLingui();
  const [pinParam, setPinParam] = usePinSearchParam();
  const pin = pinParam ?? '';
  const section = useRef<HTMLElement>(null);
  const shownPin = useRef(pin);

  // A PIN chosen from the students-below list (further down the page) opens here: bring the record into view.
  useEffect(() => {
    if (pin !== '' && pin !== shownPin.current) section.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    shownPin.current = pin;
  }, [pin]);

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="student-search-heading" id={STUDENT_SEARCH_ID} ref={section}>
      <Stack gap="md">
        <div>
          <Title order={2} id="student-search-heading">
            <Trans>Student Search</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>A student&apos;s profile, attendance summary and history by PIN.</Trans>
          </Text>
        </div>
        <StudentSearch
          pin={pin}
          onSearch={setPinParam}
          onClear={() => setPinParam(null)}
          searchingLabel={t`Searching...`}
          loadingText={t`Searching student records...`}
          notFoundHint={t`Please check the PIN and try again.`}
          designationFallback={t`Student`}
          term={term}
          onTermChange={onTermChange}
        />
      </Stack>
    </Paper>
  );
}
