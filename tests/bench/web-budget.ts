/**
 * The budget every page a buyer sees is held to (issue 20): the landing page's standard. Figures
 * are the medians the bench measured; a figure no run could measure fails its check, since an
 * unknown figure is no proof of being within budget.
 */
export const PAGE_BUDGET = {
  /** Lighthouse mobile performance score, 0–100. */
  performance: 100,
  lcpMs: 1500,
  tbtMs: 50,
  /** Lighthouse prints CLS to three decimals; 0 means it prints as 0.000. */
  cls: 0,
  jsGzipBytes: 75 * 1024,
} as const;

/** The budget's figures for one page, each the median of its runs; null when no run measured it. */
export interface PageFigures {
  performance: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  jsGzipBytes: number | null;
}

type BudgetFigure = keyof PageFigures;

export interface FigureCheck {
  figure: BudgetFigure;
  label: string;
  /** The figure as printed, e.g. "1.04 s", or "not measured". */
  value: string;
  /** The budget as printed, e.g. "≤ 1.50 s". */
  limit: string;
  pass: boolean;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const CHECKS: { figure: BudgetFigure; label: string; format: (n: number) => string; limit: string; within: (n: number) => boolean }[] = [
  {
    figure: 'performance',
    label: 'perf',
    format: String,
    limit: `${PAGE_BUDGET.performance}`,
    within: (n) => n >= PAGE_BUDGET.performance,
  },
  { figure: 'lcpMs', label: 'LCP', format: seconds, limit: `≤ ${seconds(PAGE_BUDGET.lcpMs)}`, within: (n) => n <= PAGE_BUDGET.lcpMs },
  {
    figure: 'tbtMs',
    label: 'TBT',
    format: (ms) => `${ms.toFixed(0)} ms`,
    limit: `≤ ${PAGE_BUDGET.tbtMs} ms`,
    within: (n) => Math.round(n) <= PAGE_BUDGET.tbtMs,
  },
  {
    figure: 'cls',
    label: 'CLS',
    format: (shift) => shift.toFixed(3),
    limit: PAGE_BUDGET.cls.toFixed(3),
    within: (n) => Number(n.toFixed(3)) <= PAGE_BUDGET.cls,
  },
  {
    figure: 'jsGzipBytes',
    label: 'JS gzip',
    format: kib,
    limit: `≤ ${kib(PAGE_BUDGET.jsGzipBytes)}`,
    within: (n) => n <= PAGE_BUDGET.jsGzipBytes,
  },
];

/** Each budget figure of one page against its limit. */
export function checkPage(figures: PageFigures): FigureCheck[] {
  return CHECKS.map(({ figure, label, format, limit, within }) => {
    const value = figures[figure];
    return value === null
      ? { figure, label, value: 'not measured', limit, pass: false }
      : { figure, label, value: format(value), limit, pass: within(value) };
  });
}

/** "within budget", or which figures are over (or unknown). */
export function pageVerdict(checks: FigureCheck[]): string {
  const over = checks.filter((c) => !c.pass && c.value !== 'not measured').map((c) => c.label);
  const unknown = checks.filter((c) => c.value === 'not measured').map((c) => c.label);
  if (!over.length && !unknown.length) return 'within budget';
  return [over.length ? `over: ${over.join(', ')}` : '', unknown.length ? `not measured: ${unknown.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
}

/**
 * The closing line over every page: how many are within budget, and which are not. A page that
 * did not show what a buyer sees there (`problem`) fails whatever its figures: they measured
 * something else.
 */
export function budgetVerdict(pages: { name: string; checks: FigureCheck[]; problem?: string | null }[]): { pass: boolean; line: string } {
  const failing = pages.filter((p) => p.problem || p.checks.some((c) => !c.pass));
  if (!pages.length) return { pass: false, line: 'VERDICT: FAIL, no page was measured' };
  if (!failing.length) return { pass: true, line: `VERDICT: PASS, all ${pages.length} pages within budget` };
  return {
    pass: false,
    line:
      `VERDICT: FAIL, ${pages.length - failing.length} of ${pages.length} pages within budget; ` +
      failing.map((p) => `${p.name} (${p.problem ?? pageVerdict(p.checks)})`).join(', '),
  };
}

/** A time target of the checkout-ready measurement: "1.21 s pass (≤ 1.50 s)". */
export function checkTime(ms: number | null, limitMs: number): { cell: string; pass: boolean } {
  if (ms === null) return { cell: 'not measured FAIL', pass: false };
  const pass = ms <= limitMs;
  return { cell: `${seconds(ms)} ${pass ? 'pass' : 'FAIL'}`, pass };
}
