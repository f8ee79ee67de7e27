// Quick charts drawn with uPlot (bundled; about 50 KB minified): a histogram of a numeric column, a bar
// chart of a text column's most frequent values, a scatter of two numeric columns. Colours from VS Code's
// theme (--vscode-charts-*), read when drawn. Counts are written compactly (120K, 1.2M) and the y-axis is
// as wide as its widest label (measured in the axis font), so no label is cut; the labels and the width
// drawn are left on the chart's element (data-y-labels, data-y-size, data-y-font) for the UI check.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData } from '../../platform/dataView/protocol';

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

const TICK = 6;
const GAP = 4;
const measurer = document.createElement('canvas').getContext('2d');

function axisFont(): string {
  return `12px ${themeColor('--vscode-font-family', 'sans-serif')}`;
}

function textWidth(text: string, font: string): number {
  if (!measurer) return text.length * 8;
  measurer.font = font;
  return measurer.measureText(text).width;
}

function axis(font: string): uPlot.Axis {
  const fg = themeColor('--vscode-descriptionForeground', '#888');
  const grid = themeColor('--vscode-editorWidget-border', '#8884');
  return { stroke: fg, font, gap: GAP, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1, size: TICK } };
}

/** A left axis as wide as its widest label; what it drew is kept on `target` for the UI check. */
function leftAxis(target: HTMLElement, font: string, format: (n: number) => string): uPlot.Axis {
  return {
    ...axis(font),
    values: (_: uPlot, ticks: number[]) => ticks.map(format),
    size: (_: uPlot, values: string[] | null) => {
      const labels = values ?? [];
      const size = Math.ceil(Math.max(24, ...labels.map((v) => textWidth(String(v), font)))) + TICK + GAP + 6;
      Object.assign(target.dataset, { yLabels: JSON.stringify(labels), ySize: String(size), yFont: font, yInset: String(TICK + GAP) });
      return size;
    },
  };
}

/** Steps of a count axis: whole numbers only (1, 2, 5, 10, 20, 50…). */
const COUNT_STEPS = Array.from({ length: 30 }, (_, i) => [1, 2, 5][i % 3] * 10 ** Math.floor(i / 3));

const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** A count or a value on an axis: 950, 12K, 1.2M, 0.25. */
function compact(n: number): string {
  return Math.abs(n) < 1e-3 && n !== 0 ? n.toExponential(1) : compactFormat.format(n);
}

function short(n: number): string {
  return Math.abs(n) >= 1e6 || (Math.abs(n) < 1e-3 && n !== 0) ? n.toExponential(2) : Number(n.toPrecision(4)).toLocaleString('en-US');
}

function day(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : '';
}

/** Draws `chart` into `target` (replacing what was there); returns the plot to destroy later. `dates`: the x values are dates (ms). */
export function drawChart(target: HTMLElement, chart: ChartData, width: number, dates = false): uPlot {
  target.replaceChildren();
  const font = axisFont();
  const color = themeColor('--vscode-charts-blue', '#3794ff');
  const height = 220;
  if (chart.kind === 'scatter') {
    const pairs = (chart.x as number[]).map((x, i) => [x, chart.y[i]] as const).sort((a, b) => a[0] - b[0]);
    const data: uPlot.AlignedData = [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
    return new uPlot(
      {
        width,
        height,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false } },
        axes: [
          { ...axis(font), label: chart.columns[0], values: (_: uPlot, ticks: number[]) => ticks.map(short) },
          { ...leftAxis(target, font, short), label: chart.columns[1] },
        ],
        series: [{}, { stroke: color, paths: () => null, points: { show: true, size: 3, stroke: color, fill: color } }],
      },
      data,
      target,
    );
  }
  const labels = chart.kind === 'bar' ? (chart.x as string[]) : undefined;
  const xs = labels ? labels.map((_, i) => i) : (chart.x as number[]);
  const bars = uPlot.paths.bars?.({ size: [0.9, Number.POSITIVE_INFINITY], align: labels ? 0 : 1 });
  return new uPlot(
    {
      width,
      height,
      legend: { show: false },
      scales: { x: { time: false, ...(labels ? { range: [-0.5, labels.length - 0.5] as [number, number] } : {}) } },
      axes: [
        {
          ...axis(font),
          ...(labels
            ? { values: (_: uPlot, ticks: number[]) => ticks.map((t) => (Number.isInteger(t) ? (labels[t] ?? '') : '')), rotate: -30, size: 60 }
            : { values: (_: uPlot, ticks: number[]) => ticks.map(dates ? day : short), ...(dates ? { space: 90 } : {}) }),
        },
        { ...leftAxis(target, font, compact), incrs: COUNT_STEPS },
      ],
      series: [{}, { stroke: color, fill: `${color}99`, paths: bars, points: { show: false } }],
    },
    [xs, chart.y],
    target,
  );
}
