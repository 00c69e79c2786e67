import { Paper, SimpleGrid, Stack, Table, Text, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

export interface RecordColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Figures: right-aligned in the table, in tabular figures. */
  numeric?: boolean;
  /** Left out of the printed page (an action). */
  printHide?: boolean;
  /** On a card, a line of its own (a long text, a button) instead of half of one. */
  wide?: boolean;
}

/**
 * One of the record's tables: a table, or on a phone where its columns would not fit (`asCards`), a
 * list of cards, one a row, each titled by the first column's value with the others under it by
 * their headers (two a line, the wide ones last, a line each).
 *
 * Props:
 * - `labelledBy`: the id of the heading that names the table (or the list).
 * - `columns`: the first is the row's title; `rowHeader` makes it the row's header cell in the table.
 * - `minWidth`: below it the table scrolls inside its box; none by default.
 * - `tableProps`: striped, highlightOnHover and the like, for the table.
 */
export function RecordTable<Row>({
  labelledBy,
  columns,
  rows,
  rowKey,
  asCards,
  rowHeader = false,
  minWidth,
  tableProps,
}: {
  labelledBy: string;
  columns: RecordColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  asCards: boolean;
  rowHeader?: boolean;
  minWidth?: number;
  tableProps?: TableProps;
}) {
  if (asCards) return <RecordCards labelledBy={labelledBy} columns={columns} rows={rows} rowKey={rowKey} />;
  const [first, ...rest] = columns;
  const align = (column: RecordColumn<Row>) => (column.numeric ? 'right' : undefined);
  const printHide = (column: RecordColumn<Row>) => (column.printHide ? true : undefined);
  const figures = (column: RecordColumn<Row>) => (column.numeric ? { fontVariantNumeric: 'tabular-nums' } : undefined);
  const table = (
    <Table {...tableProps} aria-labelledby={labelledBy}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header} scope="col" ta={align(column)} data-print-hide={printHide(column)}>
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)}>
            {first &&
              (rowHeader ? (
                <Table.Th scope="row" fw={500}>
                  {first.cell(row)}
                </Table.Th>
              ) : (
                <Table.Td ta={align(first)}>{first.cell(row)}</Table.Td>
              ))}
            {rest.map((column) => (
              <Table.Td key={column.header} ta={align(column)} style={figures(column)} data-print-hide={printHide(column)}>
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth === undefined ? table : <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer>;
}

/** The phone's layout of a record table: a list of cards, a row's values named by their headers. */
function RecordCards<Row>({
  labelledBy,
  columns,
  rows,
  rowKey,
}: {
  labelledBy: string;
  columns: RecordColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
}) {
  const [first, ...others] = columns;
  // Halves first, side by side, then the lines of their own.
  const rest = [...others.filter((column) => !column.wide), ...others.filter((column) => column.wide)];
  return (
    <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-labelledby={labelledBy}>
      {rows.map((row) => (
        <Paper component="li" key={rowKey(row)} withBorder radius="sm" p="sm">
          {first && (
            <Text fw={600} mb={4}>
              {first.cell(row)}
            </Text>
          )}
          <SimpleGrid component="dl" cols={2} spacing="sm" verticalSpacing={8} m={0}>
            {rest.map((column) => (
              <div key={column.header} style={column.wide ? { gridColumn: '1 / -1' } : undefined} data-print-hide={column.printHide ? true : undefined}>
                <Text component="dt" size="xs" c="dimmed">
                  {column.header}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {column.cell(row)}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}
