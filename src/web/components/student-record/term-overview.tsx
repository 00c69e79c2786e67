import '@mantine/dates/styles.css';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Calendar } from '@mantine/dates';
import { useQuery } from '@tanstack/react-query';
import { attendanceBand } from '../../../shared/attendance-rules';
import { StudentDaysSchema, type StudentDay, type StudentMonth } from '../../../shared/schemas/students';
import { api } from '../../lib/api-client';
import { formatCalendarDate, formatDate } from '../../lib/calendar-date';
import { usePhoneScreen } from '../../lib/screen';
import { withTerm, type TermChoice } from '../../lib/terms';
import { studentRecordKey } from './api';
import { DataTable, type DataColumn } from '../data-table';
import { formatCount, formatPercent } from '../../lib/numbers';
import { BandBadge } from './status-colors';

type DayWord = 'Present' | 'Late' | 'Absent' | 'Excused';

/** A day of several lectures reads as its worst mark: absent, then late, then present; excused alone is excused. */
function dayWord(day: StudentDay): DayWord {
  if (day.absent > 0) return 'Absent';
  if (day.late > 0) return 'Late';
  if (day.present > 0) return 'Present';
  return 'Excused';
}

/** Light fills with dark text: every pair above 7:1 (WCAG AAA), so the letter reads on its colour. */
const DAY_COLORS: Record<DayWord, { bg: string; fg: string }> = {
  Present: { bg: '#d3f9d8', fg: '#14532d' },
  Late: { bg: '#fff3bf', fg: '#6b3500' },
  Absent: { bg: '#ffe3e3', fg: '#7f1d1d' },
  Excused: { bg: '#e9ecef', fg: '#212529' },
};

/** Each day's mark in words, and the letter that stands for it on the calendar and in its key. */
const DAY_TEXT: Record<DayWord, { word: MessageDescriptor; letter: MessageDescriptor }> = {
  Present: { word: msg`Present`, letter: msg({ message: 'P', comment: 'The letter of a present day on the calendar (the key says "P: Present")' }) },
  Late: { word: msg`Late`, letter: msg({ message: 'L', comment: 'The letter of a late day on the calendar (the key says "L: Late")' }) },
  Absent: { word: msg`Absent`, letter: msg({ message: 'A', comment: 'The letter of an absent day on the calendar (the key says "A: Absent")' }) },
  Excused: { word: msg`Excused`, letter: msg({ message: 'E', comment: 'The letter of an excused day on the calendar (the key says "E: Excused")' }) },
};

function useStudentDays(pin: string, term: TermChoice) {
  return useQuery({
    queryKey: [...studentRecordKey(pin, term), 'days'],
    queryFn: ({ signal }) => api.get(withTerm(`/api/students/${encodeURIComponent(pin)}/days`, term), StudentDaysSchema, { signal }),
  });
}

/**
 * The student's home: a calendar of the term coloured by each day's mark (with the mark's first
 * letter and full word for who does not see colour), and the monthly trend as a table (a list of
 * cards on a phone).
 */
export function TermOverview({ pin, term }: { pin: string; term: TermChoice }) {
  const { t, i18n } = useLingui();
  const days = useStudentDays(pin, term);
  const phone = usePhoneScreen();
  // The monthly trend's columns: four, too many for a phone.
  const trendColumns: DataColumn<StudentMonth>[] = [
    { header: t`Month`, cell: (month) => formatCalendarDate(`${month.month}-01`, { month: 'long', year: 'numeric' }) },
    { header: t`Attended`, cell: (month) => formatCount(month.attended), numeric: true },
    { header: t`Held`, cell: (month) => formatCount(month.held), numeric: true },
    {
      header: t`Percentage`,
      cell: (month) => (month.held > 0 ? <BandBadge band={attendanceBand(month.percentage)}>{formatPercent(month.percentage, 1)}</BandBadge> : '–'),
      numeric: true,
    },
  ];
  const wordOf = (word: DayWord) => i18n._(DAY_TEXT[word].word);
  const letterOf = (word: DayWord) => i18n._(DAY_TEXT[word].letter);
  if (!days.data || days.data.days.length === 0) return null;
  const byDate = new Map(days.data.days.map((day) => [day.date, day]));
  const last = days.data.days[days.data.days.length - 1]!.date;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="calendar-heading">
        <Title order={2} fz="lg" mb="sm" id="calendar-heading">
          <Trans>Calendar</Trans>
        </Title>
        <Calendar
          static
          defaultDate={last}
          hideOutsideDates
          // Weekends in the text colour: the kit's red weekends are too light to read (and red means absent here).
          weekendDays={[]}
          ariaLabels={{
            previousMonth: t`Previous month`,
            nextMonth: t`Next month`,
            monthLevelControl: t`Choose a month`,
            yearLevelControl: t`Choose a year`,
            previousYear: t`Previous year`,
            nextYear: t`Next year`,
            previousDecade: t`Previous decade`,
            nextDecade: t`Next decade`,
          }}
          getDayProps={(date) => {
            const day = byDate.get(date.slice(0, 10));
            if (!day) return {};
            const word = wordOf(dayWord(day));
            const shownDate = formatDate(date.slice(0, 10));
            return { 'aria-label': `${shownDate}: ${word}`, title: word };
          }}
          renderDay={(date) => {
            const day = byDate.get(date.slice(0, 10));
            const number = Number(date.slice(8, 10));
            if (!day) return number;
            const colors = DAY_COLORS[dayWord(day)];
            return (
              <Stack gap={0} align="center" justify="center" lh={1} w="100%" h="100%" style={{ backgroundColor: colors.bg, color: colors.fg, borderRadius: 4, fontWeight: 600 }}>
                <span>{number}</span>
                <Text span fz="xs" fw={700} lh={1} aria-hidden c={colors.fg}>
                  {letterOf(dayWord(day))}
                </Text>
              </Stack>
            );
          }}
        />
        <Group gap="xs" mt="sm" aria-label={t`Key`}>
          {(Object.keys(DAY_COLORS) as DayWord[]).map((word) => (
            <Text key={word} size="xs" px={8} py={4} style={{ backgroundColor: DAY_COLORS[word].bg, color: DAY_COLORS[word].fg, borderRadius: 4 }}>
              {letterOf(word)}: {wordOf(word)}
            </Text>
          ))}
        </Group>
      </Card>
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="trend-heading">
        <Title order={2} fz="lg" mb="sm" id="trend-heading">
          <Trans>Monthly trend</Trans>
        </Title>
        <DataTable
          labelledBy="trend-heading"
          columns={trendColumns}
          rows={days.data.months}
          rowKey={(month) => month.month}
          asCards={phone}
          tableProps={{ striped: true }}
        />
      </Card>
    </SimpleGrid>
  );
}
