import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Paper, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import type { RosterPreview } from '../../../../shared/schemas/roster';
import { RosterChangeTable, type RosterChangeKind } from './roster-change-table';

const TABS: { kind: RosterChangeKind | 'unchanged'; label: MessageDescriptor }[] = [
  { kind: 'added', label: msg`Added` },
  { kind: 'updated', label: msg`Updated` },
  { kind: 'moved', label: msg`Moved` },
  { kind: 'unchanged', label: msg`Unchanged` },
  { kind: 'notInFile', label: msg`Not in file` },
];

function countOf(preview: RosterPreview, kind: RosterChangeKind | 'unchanged'): number {
  return preview[kind].count;
}

/** What the file would change, a tab per kind of change, opening on the first that has anyone. */
export function RosterPreviewTabs({ preview }: { preview: RosterPreview }) {
  const { t, i18n } = useLingui();
  const unchanged = preview.unchanged.count;
  const first = TABS.find((tab) => countOf(preview, tab.kind) > 0)?.kind ?? 'added';
  const [tab, setTab] = useState<string | null>(first);

  return (
    <Paper withBorder radius="md" p="md">
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List aria-label={t`Changes the file makes`}>
          {TABS.map(({ kind, label: descriptor }) => {
            const label = i18n._(descriptor);
            const count = countOf(preview, kind);
            return (
              <Tabs.Tab
                key={kind}
                value={kind}
                rightSection={
                  <Badge size="sm" variant="filled" color="gray.8" aria-hidden>
                    {count}
                  </Badge>
                }
                aria-label={t`${label}: ${count}`}
              >
                {label}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        <Tabs.Panel value="added" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            <Trans>PINs not on the roster yet, and withdrawn students the file brings back.</Trans>
          </Text>
          <RosterChangeTable kind="added" list={preview.added} />
        </Tabs.Panel>
        <Tabs.Panel value="updated" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            <Trans>Students whose name the file corrects; they stay in their class.</Trans>
          </Text>
          <RosterChangeTable kind="updated" list={preview.updated} />
        </Tabs.Panel>
        <Tabs.Panel value="moved" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            <Trans>Students who change class. Their past marks stay under the class they had that day.</Trans>
          </Text>
          <RosterChangeTable kind="moved" list={preview.moved} />
        </Tabs.Panel>
        <Tabs.Panel value="unchanged" pt="sm">
          <Text size="sm">
            {t`${plural(unchanged, { one: '# student is on the roster exactly as the file has them.', other: '# students are on the roster exactly as the file has them.' })}`}
          </Text>
        </Tabs.Panel>
        <Tabs.Panel value="notInFile" pt="sm">
          <Text size="sm" c="dimmed" mb="xs">
            <Trans>Students on the roster whom the file leaves out. They stay on the roster unless you choose to withdraw them.</Trans>
          </Text>
          <RosterChangeTable kind="notInFile" list={preview.notInFile} />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
