import { useLingui } from '@lingui/react/macro';
import { BarChart } from './charts';
import { formatCount } from '../format';

export interface PresentAbsentBar {
  /** The bar's name on the axis: a class, or a date. */
  label: string;
  present: number;
  absent: number;
}

/**
 * Stacked bars of present and absent marks, with a legend. Meant to sit in a ChartFigure: the
 * figures are in its caption and the table beside it, so the drawing has no accessibility layer.
 */
export function PresentAbsentBars({ bars, height }: { bars: PresentAbsentBar[]; height: number }) {
  const { t } = useLingui();
  return (
    <BarChart
      h={height}
      data={bars.map((bar) => ({ label: bar.label, present: bar.present, absent: bar.absent }))}
      dataKey="label"
      type="stacked"
      series={[
        { name: 'present', label: t`Present`, color: 'green.6' },
        { name: 'absent', label: t`Absent`, color: 'red.6' },
      ]}
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      yAxisProps={{ allowDecimals: false }}
      valueFormatter={(value) => formatCount(Math.round(value))}
      accessibilityLayer={false}
    />
  );
}
