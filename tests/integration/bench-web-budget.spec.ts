import { OFFERS } from '@contracts/plans';
import { budgetVerdict, checkPage, checkTime, pageVerdict, PAGE_BUDGET } from '../bench/web-budget';

// `npm run bench:web` holds every buyer page to one budget (issue 20); these are its rules, with
// no browser: the bench itself is too slow and too noisy to be a test.
const withinBudget = { performance: 100, lcpMs: 1040, tbtMs: 24, cls: 0, jsGzipBytes: 70.7 * 1024 };

describe('bench:web page budget', () => {
  it('passes a page at or under every limit, and prints each figure with its limit', () => {
    const checks = checkPage({
      performance: PAGE_BUDGET.performance,
      lcpMs: PAGE_BUDGET.lcpMs,
      tbtMs: PAGE_BUDGET.tbtMs,
      cls: 0.0004,
      jsGzipBytes: PAGE_BUDGET.jsGzipBytes,
    });
    expect(checks.map((c) => [c.label, c.value, c.limit, c.pass])).toEqual([
      ['perf', '100', '100', true],
      ['LCP', '1.50 s', '≤ 1.50 s', true],
      ['TBT', '50 ms', '≤ 50 ms', true],
      ['CLS', '0.000', '0.000', true],
      ['JS gzip', '75.0 KiB', '≤ 75.0 KiB', true],
    ]);
    expect(pageVerdict(checks)).toBe('within budget');
  });

  it('fails each figure just over its limit, by name', () => {
    const checks = checkPage({ performance: 99, lcpMs: 1510, tbtMs: 51, cls: 0.001, jsGzipBytes: PAGE_BUDGET.jsGzipBytes + 1 });
    expect(checks.every((c) => !c.pass)).toBe(true);
    expect(pageVerdict(checks)).toBe('over: perf, LCP, TBT, CLS, JS gzip');
  });

  it('counts a figure no run measured as a failure, never as within budget', () => {
    const checks = checkPage({ ...withinBudget, lcpMs: null });
    expect(checks.find((c) => c.label === 'LCP')).toMatchObject({ value: 'not measured', pass: false });
    expect(pageVerdict(checks)).toBe('not measured: LCP');
  });

  it('gives one verdict over every page, naming those over budget or not reached', () => {
    const ok = { name: '/', checks: checkPage(withinBudget) };
    expect(budgetVerdict([ok])).toEqual({ pass: true, line: 'VERDICT: PASS, all 1 pages within budget' });

    const slow = { name: '/checkout', checks: checkPage({ ...withinBudget, lcpMs: 2420, tbtMs: 119 }) };
    const elsewhere = { name: '/account signed in', checks: checkPage(withinBudget), problem: `did not show "${OFFERS.default.name}"` };
    expect(budgetVerdict([ok, slow, elsewhere])).toEqual({
      pass: false,
      line: `VERDICT: FAIL, 1 of 3 pages within budget; /checkout (over: LCP, TBT), /account signed in (did not show "${OFFERS.default.name}")`,
    });
    expect(budgetVerdict([]).pass).toBe(false);
  });

  it('holds the checkout times to their targets', () => {
    expect(checkTime(1500, 1500)).toEqual({ cell: '1.50 s pass', pass: true });
    expect(checkTime(1510, 1500)).toEqual({ cell: '1.51 s FAIL', pass: false });
    expect(checkTime(null, 2500).pass).toBe(false);
  });
});
