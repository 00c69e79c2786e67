import { Badge, type BadgeProps } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import type { Band } from '../../../shared/attendance-rules';

/** Mantine colour of each attendance band, for tints and bars. */
export const BAND_COLORS: Record<Band, string> = { good: 'green', warning: 'yellow', danger: 'red' };

/**
 * Text colours for each band that keep a 4.5:1 contrast on the page and on Mantine's light tints, light or dark (colors.css);
 * Mantine's own green and yellow text shades fall short of it.
 */
export const BAND_TEXT_COLORS: Record<Band, string> = {
  good: 'var(--portal-text-good)',
  warning: 'var(--portal-text-warning)',
  danger: 'var(--portal-text-danger)',
};

/**
 * A badge whose word always reads whole: never narrower than its text, where the kit would let a
 * narrow screen cut it to `PR…`.
 */
export function WordBadge({ children, ...props }: BadgeProps & { children: ReactNode }) {
  return (
    <Badge miw="max-content" {...props}>
      {children}
    </Badge>
  );
}

/** A light badge in a band's tint with readable text. */
export function BandBadge({ band, children }: { band: Band; children: ReactNode }) {
  return (
    <WordBadge variant="light" color={BAND_COLORS[band]} style={{ '--badge-color': BAND_TEXT_COLORS[band] } as CSSProperties}>
      {children}
    </WordBadge>
  );
}
