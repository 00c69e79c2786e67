import type { BarChartProps, DonutChartProps, PieChartProps } from '@mantine/charts';
import { Box } from '@mantine/core';
import { lazy, Suspense, type ComponentType } from 'react';

/**
 * The kit's charts, loaded after the page's figures show: the charts library and its helpers are
 * about a third of the reports page's JavaScript, and every figure a chart draws is also in text
 * beside it. Until it arrives, each chart keeps its own space, so nothing moves when it appears.
 */
const charts = () => import('@mantine/charts');
const LazyPieChart = lazy(() => charts().then((module) => ({ default: module.PieChart })));
const LazyDonutChart = lazy(() => charts().then((module) => ({ default: module.DonutChart })));
const LazyBarChart = lazy(() => charts().then((module) => ({ default: module.BarChart })));

/** The kit's default pie and donut size, when none is given. */
const DEFAULT_ROUND_SIZE = 160;

/** A round chart (pie or donut) that keeps its square while the library loads. */
function roundChart<P extends { size?: number | undefined }>(Chart: ComponentType<P>) {
  return function RoundChart(props: P) {
    const size = props.size ?? DEFAULT_ROUND_SIZE;
    return (
      <Suspense fallback={<Box w={size} h={size} />}>
        <Chart {...props} />
      </Suspense>
    );
  };
}

export const PieChart = roundChart<PieChartProps>(LazyPieChart);
export const DonutChart = roundChart<DonutChartProps>(LazyDonutChart);

/** A bar chart needs its height (`h`): the space it keeps while it loads. */
export function BarChart(props: BarChartProps & { h: number }) {
  return (
    <Suspense fallback={<Box w="100%" h={props.h} />}>
      <LazyBarChart {...props} />
    </Suspense>
  );
}
