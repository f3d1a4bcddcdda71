/**
 * Matching sessions per day as SVG bars with labelled axes, built with DOM calls (no markup strings). Hovering or
 * focusing a bar shows its count; clicking it (or Enter) asks the panel to filter to that day.
 */
const SVG = 'http://www.w3.org/2000/svg';
const DAY_MS = 86_400_000;
/** Up to this many days between the first and last match, every day gets a slot (empty days show as gaps). */
const CONTINUOUS_DAYS = 92;
const MAX_BARS = 60;
const LEFT = 22;
const TOP = 12;
const PLOT_HEIGHT = 44;
const SLOT = 12;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

const plural = (n: number): string => `${n} session${n === 1 ? '' : 's'}`;

/** The days to draw, oldest first: every day of a short span, else the latest days that have matches. */
export function chartDays(days: readonly string[]): { day: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const d of days) if (/^\d{4}-\d{2}-\d{2}$/.test(d)) counts.set(d, (counts.get(d) ?? 0) + 1);
  const sorted = [...counts.keys()].sort();
  if (!sorted.length) return [];
  const first = Date.parse(`${sorted[0]}T00:00:00Z`);
  const last = Date.parse(`${sorted[sorted.length - 1]}T00:00:00Z`);
  const span = Math.round((last - first) / DAY_MS) + 1;
  if (span <= CONTINUOUS_DAYS) {
    return Array.from({ length: span }, (_, i) => {
      const day = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
      return { day, count: counts.get(day) ?? 0 };
    });
  }
  return sorted.slice(-MAX_BARS).map((day) => ({ day, count: counts.get(day)! }));
}

export function drawChart(container: HTMLElement, days: string[], onPick: (day: string) => void): void {
  container.replaceChildren();
  const bars = chartDays(days);
  if (!bars.length) return;
  const max = Math.max(...bars.map((b) => b.count));
  const width = LEFT + Math.max(200, bars.length * SLOT);
  const chart = svg('svg', { viewBox: `0 0 ${width} ${TOP + PLOT_HEIGHT + 12}`, role: 'group' });
  chart.setAttribute('aria-label', `Matching sessions per day, ${bars[0].day} to ${bars[bars.length - 1].day}`);
  const hover = document.createElement('div');
  hover.className = 'chart-hover';
  hover.setAttribute('aria-live', 'polite');
  const hint = 'Hover a bar for its count; click it to show only that day.';
  hover.textContent = hint;

  // axes: the y axis with 0 and the highest count, the x axis with the first and last day
  const base = TOP + PLOT_HEIGHT;
  chart.append(
    svg('text', { x: 0, y: 8, class: 'axis' }, 'sessions per day'),
    svg('line', { x1: LEFT - 2, y1: TOP, x2: LEFT - 2, y2: base, class: 'axis-line' }),
    svg('line', { x1: LEFT - 2, y1: base, x2: width, y2: base, class: 'axis-line' }),
    svg('text', { x: LEFT - 5, y: TOP + 6, class: 'axis', 'text-anchor': 'end' }, String(max)),
    svg('text', { x: LEFT - 5, y: base, class: 'axis', 'text-anchor': 'end' }, '0'),
    svg('text', { x: LEFT, y: base + 10, class: 'axis' }, bars[0].day),
  );
  if (bars.length > 1) chart.append(svg('text', { x: width, y: base + 10, class: 'axis', 'text-anchor': 'end' }, bars[bars.length - 1].day));

  bars.forEach(({ day, count }, i) => {
    if (!count) return;
    const h = Math.max(2, (count / max) * PLOT_HEIGHT);
    const bar = svg('rect', { x: LEFT + i * SLOT + 1, y: base - h, width: SLOT - 3, height: h, class: 'bar', tabindex: 0, role: 'button' });
    bar.dataset.day = day;
    const label = `${day}: ${plural(count)}`;
    bar.setAttribute('aria-label', `${label}. Show only this day.`);
    bar.append(svg('title', {}, label));
    const show = (): void => {
      hover.textContent = `${label} · click to show only this day`;
    };
    bar.addEventListener('mouseenter', show);
    bar.addEventListener('focus', show);
    bar.addEventListener('mouseleave', () => (hover.textContent = hint));
    bar.addEventListener('click', () => onPick(day));
    bar.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      onPick(day);
    });
    chart.append(bar);
  });
  container.append(chart, hover);
}
