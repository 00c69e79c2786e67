import { Badge } from '@mantine/core';
import { attendanceBand, type Band } from '../../../../shared/attendance-rules';
import { BAND_FILL, formatPercent } from '../format';

/** A figure on its band's colour (green, yellow or red), with dark text that stays readable on all three. */
export function BandBadge({ band, children, title }: { band: Band; children: string; title?: string }) {
  return (
    <Badge color={BAND_FILL[band]} c="black" variant="filled" radius="sm" size="lg" tt="none" fw={600} title={title} data-band={band}>
      {children}
    </Badge>
  );
}

/** A percentage (two decimals) on its band's colour: attendance's band unless `band` says otherwise. */
export function PercentBadge({ value, band = attendanceBand(value) }: { value: number; band?: Band }) {
  return <BandBadge band={band}>{formatPercent(value, 2)}</BandBadge>;
}
