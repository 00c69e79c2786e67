import { Badge, Paper, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import type { RosterPreview } from '../../../../shared/schemas/roster';
import { RosterChangeTable, type RosterChangeKind } from './roster-change-table';

const TABS: { kind: RosterChangeKind | 'unchanged'; label: string }[] = [
  { kind: 'added', label: 'Added' },
  { kind: 'updated', label: 'Updated' },
  { kind: 'moved', label: 'Moved' },
  { kind: 'unchanged', label: 'Unchanged' },
  { kind: 'notInFile', label: 'Not in file' },
];

function countOf(preview: RosterPreview, kind: RosterChangeKind | 'unchanged'): number {
  return preview[kind].count;
}

/** What the file would change, a tab per kind of change, opening on the first that has anyone. */
export function RosterPreviewTabs({ preview }: { preview: RosterPreview }) {
  const first = TABS.find((tab) => countOf(preview, tab.kind) > 0)?.kind ?? 'added';
  const [tab, setTab] = useState<string | null>(first);

  return (
    <Paper withBorder radius="md" p="md">
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List aria-label="Changes the file makes">
          {TABS.map(({ kind, label }) => (
            <Tabs.Tab
              key={kind}
              value={kind}
              rightSection={
                <Badge size="sm" variant="filled" color="gray.8" aria-hidden>
                  {countOf(preview, kind)}
                </Badge>
              }
              aria-label={`${label}: ${countOf(preview, kind)}`}
            >
              {label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="added" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            PINs not on the roster yet, and withdrawn students the file brings back.
          </Text>
          <RosterChangeTable kind="added" list={preview.added} />
        </Tabs.Panel>
        <Tabs.Panel value="updated" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            Students whose name the file corrects; they stay in their class.
          </Text>
          <RosterChangeTable kind="updated" list={preview.updated} />
        </Tabs.Panel>
        <Tabs.Panel value="moved" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            Students who change class. Their past marks stay under the class they had that day.
          </Text>
          <RosterChangeTable kind="moved" list={preview.moved} />
        </Tabs.Panel>
        <Tabs.Panel value="unchanged" pt="sm">
          <Text size="sm">
            {preview.unchanged.count} {preview.unchanged.count === 1 ? 'student is' : 'students are'} on the roster exactly as the file
            has them.
          </Text>
        </Tabs.Panel>
        <Tabs.Panel value="notInFile" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            Students on the roster whom the file leaves out. They stay on the roster unless you choose to withdraw them.
          </Text>
          <RosterChangeTable kind="notInFile" list={preview.notInFile} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
