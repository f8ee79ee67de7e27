// Quick charts drawn with uPlot (bundled; about 50 KB minified): a histogram of a numeric column, a bar
// chart of a text column's most frequent values, a scatter of two numeric columns. Colours from VS Code's
// theme (--vscode-charts-*), read when drawn.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData } from '../../platform/dataView/protocol';

function themeColor(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function axis(): uPlot.Axis {
  const fg = themeColor('--vscode-descriptionForeground', '#888');
  const grid = themeColor('--vscode-editorWidget-border', '#8884');
  return { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
}

function short(n: number): string {
  return Math.abs(n) >= 1e6 || (Math.abs(n) < 1e-3 && n !== 0) ? n.toExponential(2) : Number(n.toPrecision(4)).toLocaleString('en-US');
}

/** Draws `chart` into `target` (replacing what was there); returns the plot to destroy later. */
export function drawChart(target: HTMLElement, chart: ChartData, width: number): uPlot {
  target.replaceChildren();
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
          { ...axis(), label: chart.columns[0] },
          { ...axis(), label: chart.columns[1] },
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
          ...axis(),
          ...(labels
            ? { values: (_: uPlot, ticks: number[]) => ticks.map((t) => (Number.isInteger(t) ? (labels[t] ?? '') : '')), rotate: -30, size: 60 }
            : { values: (_: uPlot, ticks: number[]) => ticks.map(short) }),
        },
        { ...axis(), values: (_: uPlot, ticks: number[]) => ticks.map(short) },
      ],
      series: [{}, { stroke: color, fill: `${color}99`, paths: bars, points: { show: false } }],
    },
    [xs, chart.y],
    target,
  );
}
