import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A chart with its text alternative. The drawing is hidden from screen readers (its figures are
 * in the caption and in the table beside it), so its SVG must hold nothing focusable.
 */
export function ChartFigure({ caption, children }: { caption: ReactNode; children: ReactNode }) {
  return (
    <Box component="figure" m={0}>
      <div aria-hidden="true">{children}</div>
      <Text component="figcaption" size="sm" ta="center" mt="xs">
        {caption}
      </Text>
    </Box>
  );
}
