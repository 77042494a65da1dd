import type { RevenueMonth } from '@contracts/revenue';

/**
 * Inline SVG bar charts of the revenue screen: no chart library in the admin bundle. Each chart
 * is one labelled image; the table beside it holds the same figures for screen readers and CSV.
 */
const WIDTH = 640;
const HEIGHT = 200;
const AXIS = 18;

const monthLabel = (month: string) => month.slice(2).replace('-', '/');

function MonthAxis({ months, step, y }: { months: RevenueMonth[]; step: number; y: number }) {
  // At most twelve labels, so three years of months stay readable.
  const every = Math.ceil(months.length / 12);
  return (
    <g className="rev-chart__axis" aria-hidden="true">
      {months.map((m, i) =>
        i % every === 0 ? (
          <text key={m.month} x={step * i + step / 2} y={y} textAnchor="middle">
            {monthLabel(m.month)}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** MRR per month as bars, the top bar's figure written above it. */
export function MrrChart({ months, label, format }: { months: RevenueMonth[]; label: string; format: (cents: number) => string }) {
  const top = Math.max(1, ...months.map((m) => m.mrrCents));
  const step = WIDTH / Math.max(1, months.length);
  const plot = HEIGHT - AXIS - 16;
  return (
    <svg className="rev-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-testid="mrr-chart">
      <text className="rev-chart__axis" x={0} y={12} aria-hidden="true">
        {format(top)}
      </text>
      {months.map((m, i) => {
        const height = (m.mrrCents / top) * plot;
        return (
          <rect key={m.month} className="rev-bar" x={step * i + step * 0.15} width={step * 0.7} y={16 + plot - height} height={height} />
        );
      })}
      <MonthAxis months={months} step={step} y={HEIGHT - 4} />
    </svg>
  );
}

/** Each month's MRR gained (new, expansion, reactivated, resumed) stacked above the line and lost (contraction, churn, paused) below it. */
export function MovementsChart({ months, label }: { months: RevenueMonth[]; label: string }) {
  const gained = (m: RevenueMonth) => [m.newCents, m.expansionCents, m.reactivatedCents, m.resumedCents];
  const lost = (m: RevenueMonth) => [m.contractionCents, m.churnedCents, m.pausedCents];
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const up = Math.max(0, ...months.map((m) => sum(gained(m))));
  const down = Math.max(0, ...months.map((m) => sum(lost(m))));
  const plot = HEIGHT - AXIS - 4;
  const scale = plot / Math.max(1, up + down);
  const zero = 4 + up * scale;
  const step = WIDTH / Math.max(1, months.length);
  const kinds = ['new', 'expansion', 'reactivated', 'resumed'];
  const lostKinds = ['contraction', 'churned', 'paused'];
  return (
    <svg className="rev-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-testid="movements-chart">
      {months.map((m, i) => {
        const x = step * i + step * 0.15;
        let above = zero;
        let below = zero;
        return (
          <g key={m.month}>
            {gained(m).map((cents, k) => {
              const h = cents * scale;
              above -= h;
              return cents > 0 ? (
                <rect key={kinds[k]} className={`rev-bar rev-bar--${kinds[k]}`} x={x} width={step * 0.7} y={above} height={h} />
              ) : null;
            })}
            {lost(m).map((cents, k) => {
              const h = cents * scale;
              const y = below;
              below += h;
              return cents > 0 ? (
                <rect key={lostKinds[k]} className={`rev-bar rev-bar--${lostKinds[k]}`} x={x} width={step * 0.7} y={y} height={h} />
              ) : null;
            })}
          </g>
        );
      })}
      <line className="rev-chart__zero" x1={0} x2={WIDTH} y1={zero} y2={zero} />
      <MonthAxis months={months} step={step} y={HEIGHT - 4} />
    </svg>
  );
}
