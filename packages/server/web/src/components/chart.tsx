import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// Only what the pages draw (lines and bars): Chart.js is tree-shaken into the bundle, no CDN.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

/** Colours of the series, in order (the same in the HTML report of `treeagent report`). */
export const SERIES_COLORS = ['#0969da', '#bf3989', '#1a7f37', '#9a6700', '#8250df', '#cf222e'];

/**
 * A Chart.js chart on a canvas, rebuilt when `config` changes; `label` is its accessible name
 * (the figures themselves are in the tables and cards beside it).
 */
export function ChartView({ config, label, id }: { config: ChartConfiguration; label: string; id?: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options },
    });
    return () => chart.destroy();
  }, [config]);
  return (
    <div class="chart-box" {...(id ? { id } : {})}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
