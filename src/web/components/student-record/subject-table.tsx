import { Card, Table, Text, Title } from '@mantine/core';
import { attendanceBand, formatPercent } from '../../../shared/attendance-rules';
import type { SubjectSummary } from '../../../shared/schemas/students';
import { BAND_TEXT_COLORS, BandBadge } from './status-colors';

/**
 * Attendance per subject (DESIGN.md 7.6): held and attended lectures (excused left out), the
 * percentage, Good or Low by the summary's own rule, and how many more can be missed while
 * staying at or above 75%. Shown only when the student had lectures.
 */
export function SubjectTable({ subjects, headingLevel = 2 }: { subjects: SubjectSummary[]; headingLevel?: 2 | 3 | 4 }) {
  const headingId = 'subject-attendance-heading';
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={headingLevel} fz="lg" mb="sm" id={headingId}>
        Attendance by Subject
      </Title>
      <Table.ScrollContainer minWidth={420}>
        <Table striped aria-labelledby={headingId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Subject</Table.Th>
              <Table.Th scope="col" ta="right">
                Held
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Attended
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Percentage
              </Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col" ta="right">
                Can still miss
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {subjects.map((subject) => {
              const band = attendanceBand(subject.percentage);
              return (
                <Table.Tr key={subject.code}>
                  <Table.Th scope="row" fw={500}>
                    {subject.name}
                    <Text span size="xs" c="dimmed" ml={8} ff="monospace">
                      {subject.code}
                    </Text>
                  </Table.Th>
                  <Table.Td ta="right">{subject.held}</Table.Td>
                  <Table.Td ta="right">{subject.attended}</Table.Td>
                  <Table.Td ta="right" c={BAND_TEXT_COLORS[band]} fw={600}>
                    {formatPercent(subject.percentage, 1)}
                  </Table.Td>
                  <Table.Td>
                    <BandBadge band={subject.status === 'Good' ? 'good' : 'danger'}>{subject.status}</BandBadge>
                  </Table.Td>
                  <Table.Td ta="right">{subject.canMiss}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
