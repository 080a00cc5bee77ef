import { Paper, Text, useMantineTheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  /** A Mantine colour name ('blue', 'red'). */
  color: string;
}

const HEIGHT = 180;
const HALF_DAY = 43_200;
/** The value axis steps in whole units (no '0.5 conversions'): 1, 2, 5, 10, 20, 50… */
const WHOLE_STEPS = Array.from({ length: 10 }, (_, power) =>
  [1, 2, 5].map((step) => step * 10 ** power),
).flat();

/** False where a canvas cannot be drawn on (a test's DOM): the figures' table stays. */
function canDraw(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

/**
 * One figure of the overview over the period, drawn by uPlot (decision 053): bars of one
 * series, or lines of several. The drawing is an image named by `summary` (its totals and best
 * day); the figures themselves are in the page's table, for screen readers and for reading.
 */
export function OverviewChart({
  title,
  summary,
  days,
  series,
  format,
  locale,
}: {
  title: string;
  summary: string;
  /** The days, YYYY-MM-DD (UTC). */
  days: string[];
  series: ChartSeries[];
  format: (value: number) => string;
  locale: string;
}) {
  const theme = useMantineTheme();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || !canDraw()) return;
    const dayFormat = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
    const bars = series.length === 1 ? uPlot.paths.bars?.({ size: [0.7, 24] }) : undefined;
    const plot = new uPlot(
      {
        width: element.clientWidth || 300,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          // Half a day either side, so the first and last days' bars are whole.
          x: { time: true, range: (_u, min, max) => [min - HALF_DAY, max + HALF_DAY] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          {
            stroke: theme.colors.gray[7],
            grid: { show: false },
            // Room for a day written in full ('28 نوفمبر').
            space: 80,
            values: (_u, splits) => splits.map((split) => dayFormat.format(new Date(split * 1000))),
          },
          {
            stroke: theme.colors.gray[7],
            grid: { stroke: theme.colors.gray[2] },
            // Room for an amount with its currency ('US$ 1,250.00').
            size: 88,
            incrs: WHOLE_STEPS,
            values: (_u, splits) => splits.map(format),
          },
        ],
        series: [
          {},
          ...series.map((one) => ({
            label: one.label,
            stroke: theme.colors[one.color]?.[7] ?? one.color,
            fill: bars ? (theme.colors[one.color]?.[4] ?? one.color) : undefined,
            width: 2,
            ...(bars && { paths: bars, points: { show: false } }),
          })),
        ],
      },
      [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: element.clientWidth, height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, format, locale, theme]);
  return (
    <Paper withBorder p="sm" radius="md" component="figure" m={0}>
      <Text component="figcaption" fw={600} mb={4}>
        {title}
      </Text>
      <div ref={box} role="img" aria-label={summary} style={{ minHeight: HEIGHT }} />
    </Paper>
  );
}
