import { Card, Table, Text, Title } from '@mantine/core';
import type { HistoryEntry } from '../../../shared/schemas/students';
import { formatCalendarDate } from '../../lib/calendar-date';
import { BandBadge } from './status-colors';

/**
 * The attendance history: Date, Class and a Present/Absent badge, in the order given (the API
 * sends newest first).
 *
 * Props:
 * - `history`: the `history` of GET /api/students/:pin.
 * - `title`: the heading (default 'Attendance History'); `headingLevel` its level (default 2).
 */
export function AttendanceHistoryTable({
  history,
  title = 'Attendance History',
  headingLevel = 2,
}: {
  history: HistoryEntry[];
  title?: string;
  headingLevel?: 2 | 3 | 4;
}) {
  const headingId = 'attendance-history-heading';
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={headingLevel} fz="lg" mb="sm" id={headingId}>
        {title}
      </Title>
      {history.length === 0 ? (
        <Text c="dimmed">No attendance has been recorded yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table striped highlightOnHover aria-labelledby={headingId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Date</Table.Th>
                <Table.Th scope="col">Class</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.map((entry) => (
                <Table.Tr key={`${entry.date}-${entry.class}`}>
                  <Table.Td>{formatCalendarDate(entry.date, { dateStyle: 'medium' })}</Table.Td>
                  <Table.Td>{entry.class}</Table.Td>
                  <Table.Td>
                    <BandBadge band={entry.present ? 'good' : 'danger'}>{entry.present ? 'Present' : 'Absent'}</BandBadge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
