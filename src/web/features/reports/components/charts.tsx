import { useLingui } from '@lingui/react/macro';
import type { BarChartProps, DonutChartProps, PieChartProps } from '@mantine/charts';
import { Box, Center, Text } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { PartErrorBoundary } from '../../../components/load-states';

/**
 * The kit's charts, loaded after the page's figures show and drawn when they come near the
 * screen: the charts library and its helpers are about a third of the reports page's JavaScript,
 * drawing one measures the page, and every figure a chart draws is also in text beside it. Until a
 * chart is drawn, it keeps its own space, so nothing moves when it appears.
 */
const charts = () => import('@mantine/charts');
const LazyPieChart = lazy(() => charts().then((module) => ({ default: module.PieChart })));
const LazyDonutChart = lazy(() => charts().then((module) => ({ default: module.DonutChart })));
const LazyBarChart = lazy(() => charts().then((module) => ({ default: module.BarChart })));

/** How far below (or above) the screen a chart starts to load: a little ahead of the scroll. */
const AHEAD = '200px 0px';

/** What a chart whose code cannot be loaded leaves in its space, in English (shown in the language of the page). */
export const CHART_UNAVAILABLE = 'Chart not available';

/** Its children once the space it keeps has come within reach of the screen; the space until then. */
function WhenNear({ w, h, children }: { w: number | string; h: number; children: ReactNode }) {
  const { t } = useLingui();
  const space = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = space.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: AHEAD });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  const placeholder = <Box ref={space} w={w} h={h} />;
  return near ? (
    // A chart whose code cannot be loaded keeps its space with a word: every figure it would draw
    // is in the text beside it.
    <PartErrorBoundary
      fallback={
        <Center w={w} h={h}>
          <Text size="xs" c="dimmed">
            {t`Chart not available`}
          </Text>
        </Center>
      }
    >
      <Suspense fallback={placeholder}>{children}</Suspense>
    </PartErrorBoundary>
  ) : (
    placeholder
  );
}

/** The kit's default pie and donut size, when none is given. */
const DEFAULT_ROUND_SIZE = 160;

/** A round chart (pie or donut) that keeps its square while the library loads. */
function roundChart<P extends { size?: number | undefined }>(Chart: ComponentType<P>) {
  return function RoundChart(props: P) {
    const size = props.size ?? DEFAULT_ROUND_SIZE;
    return (
      <WhenNear w={size} h={size}>
        <Chart {...props} />
      </WhenNear>
    );
  };
}

export const PieChart = roundChart<PieChartProps>(LazyPieChart);
export const DonutChart = roundChart<DonutChartProps>(LazyDonutChart);

/** A bar chart needs its height (`h`): the space it keeps while it loads. */
export function BarChart(props: BarChartProps & { h: number }) {
  return (
    <WhenNear w="100%" h={props.h}>
      <LazyBarChart {...props} />
    </WhenNear>
  );
}
