import { Paper, SimpleGrid, Stack, Table, Text, VisuallyHidden, type TableProps, type TableTdProps, type TableThProps } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

export interface DataColumn<Row> {
  header: string;
  cell: (row: Row, index: number) => ReactNode;
  /** The header is for screen readers only (a column of buttons: 'Actions'). */
  hiddenHeader?: boolean;
  /** Figures: right-aligned, in tabular figures. */
  numeric?: boolean;
  /** The row's header cell (`th scope="row"`), which names the row for screen readers. */
  rowHeader?: boolean;
  /** The cells' own look: a weight, a font, a width, no wrapping. */
  cellProps?: Pick<TableTdProps, 'fw' | 'ff' | 'w' | 'ta'> & { style?: CSSProperties };
  /** A value that must not break across lines (a date). */
  nowrap?: boolean;
  headerProps?: Pick<TableThProps, 'w'>;
  /** Left out of the printed page (an action). */
  printHide?: boolean;
  /** On a card, a line of its own (a long text, a button) instead of half of one. */
  wide?: boolean;
}

const FIGURES = { fontVariantNumeric: 'tabular-nums' } as const;
const NOWRAP = { whiteSpace: 'nowrap' } as const;

/**
 * One of the portal's tables, from its columns: a header row, then a row per item. Where its
 * columns would not fit (`asCards`, on a phone), a list of cards instead, one an item, each titled
 * by the first column's value with the others under it by their headers (two a line, the wide
 * ones last, a line each).
 *
 * Props:
 * - `label` or `labelledBy`: the table's name (or the id of the heading that gives it).
 * - `caption`: what the table shows, under it.
 * - `minWidth`: below it the table scrolls inside its box; none by default.
 * - `tableProps`: striped, highlightOnHover, the rows' spacing, aria-busy.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  label,
  labelledBy,
  caption,
  minWidth,
  asCards = false,
  tableProps,
}: {
  columns: DataColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  label?: string;
  labelledBy?: string;
  caption?: ReactNode;
  minWidth?: number | undefined;
  asCards?: boolean;
  tableProps?: TableProps;
}) {
  if (asCards) return <DataCards columns={columns} rows={rows} rowKey={rowKey} labelledBy={labelledBy} label={label} />;
  const table = (
    <Table {...tableProps} aria-label={label} aria-labelledby={labelledBy}>
      {caption && <Table.Caption>{caption}</Table.Caption>}
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header} scope="col" ta={column.numeric ? 'right' : undefined} data-print-hide={column.printHide || undefined} {...column.headerProps}>
              {column.hiddenHeader ? <VisuallyHidden>{column.header}</VisuallyHidden> : column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, index) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((column) => {
              const Cell = column.rowHeader ? Table.Th : Table.Td;
              return (
                <Cell
                  key={column.header}
                  scope={column.rowHeader ? 'row' : undefined}
                  ta={column.numeric ? 'right' : undefined}
                  data-print-hide={column.printHide || undefined}
                  {...column.cellProps}
                  style={{ ...(column.numeric && FIGURES), ...(column.nowrap && NOWRAP), ...column.cellProps?.style }}
                >
                  {column.cell(row, index)}
                </Cell>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return minWidth === undefined ? table : <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer>;
}

/** The phone's layout of a table: a list of cards, an item's values named by their headers. */
function DataCards<Row>({
  columns,
  rows,
  rowKey,
  label,
  labelledBy,
}: {
  columns: DataColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  label?: string | undefined;
  labelledBy?: string | undefined;
}) {
  const [first, ...others] = columns;
  // Halves first, side by side, then the lines of their own.
  const rest = [...others.filter((column) => !column.wide), ...others.filter((column) => column.wide)];
  return (
    <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label} aria-labelledby={labelledBy}>
      {rows.map((row, index) => (
        <Paper component="li" key={rowKey(row)} withBorder radius="sm" p="sm">
          {first && (
            <Text fw={600} mb={4}>
              {first.cell(row, index)}
            </Text>
          )}
          <SimpleGrid component="dl" cols={2} spacing="sm" verticalSpacing={8} m={0}>
            {rest.map((column) => (
              <div key={column.header} style={column.wide ? { gridColumn: '1 / -1' } : undefined} data-print-hide={column.printHide || undefined}>
                <Text component="dt" size="xs" c="dimmed">
                  {column.header}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {column.cell(row, index)}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}
