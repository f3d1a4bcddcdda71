/** Matching sessions per day as SVG bars, built with DOM calls (no markup strings). */
const SVG = 'http://www.w3.org/2000/svg';

export function drawChart(container: HTMLElement, days: string[]): void {
  container.replaceChildren();
  if (!days.length) return;
  const counts = new Map<string, number>();
  for (const d of days) counts.set(d, (counts.get(d) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1)).slice(-60);
  const max = Math.max(...sorted.map(([, n]) => n));
  const width = Math.max(200, sorted.length * 12);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} 60`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Matching sessions per day, ${sorted[0][0]} to ${sorted[sorted.length - 1][0]}`);
  sorted.forEach(([day, n], i) => {
    const bar = document.createElementNS(SVG, 'rect');
    const h = Math.max(2, (n / max) * 48);
    bar.setAttribute('x', String(i * 12 + 1));
    bar.setAttribute('y', String(50 - h));
    bar.setAttribute('width', '9');
    bar.setAttribute('height', String(h));
    bar.setAttribute('class', 'bar');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${day}: ${n} session${n === 1 ? '' : 's'}`;
    bar.append(title);
    svg.append(bar);
  });
  const label = document.createElementNS(SVG, 'text');
  label.setAttribute('x', '0');
  label.setAttribute('y', '59');
  label.setAttribute('class', 'axis');
  label.textContent = `${sorted[0][0]} – ${sorted[sorted.length - 1][0]}`;
  svg.append(label);
  container.append(svg);
}
