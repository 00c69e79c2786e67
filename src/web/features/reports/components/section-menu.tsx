import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group, Text } from '@mantine/core';

export interface PageSection {
  /** The id of the section's heading: the link scrolls to it and gives it focus. */
  headingId: string;
  label: string;
}

/**
 * The faculty-details page's in-page menu: every report section one click (or
 * Tab and Enter) away, without scrolling through the others. The address does not change: the
 * page is the same, and Back leaves it.
 */
export function SectionMenu({ sections }: { sections: PageSection[] }) {
  const { t } = useLingui();
  const go = (headingId: string) => {
    const heading = document.getElementById(headingId);
    if (!heading) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  };
  return (
    <Group component="nav" aria-label={t`On this page`} gap="xs" wrap="wrap" style={{ rowGap: 4 }}>
      <Text size="sm" c="dimmed" component="span">
        <Trans>On this page:</Trans>
      </Text>
      {sections.map((section) => (
        <Anchor
          key={section.headingId}
          href={`#${section.headingId}`}
          size="sm"
          onClick={(event) => {
            event.preventDefault();
            go(section.headingId);
          }}
        >
          {section.label}
        </Anchor>
      ))}
    </Group>
  );
}
