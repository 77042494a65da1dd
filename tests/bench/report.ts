import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/stack';

/** One cell of a printed table: numbers are formatted by the caller, so units stay explicit. */
type Cell = string | number | null;
export type Row = Record<string, Cell>;

export interface Section {
  title: string;
  rows: Row[];
  notes: string[];
}

export const benchDir = join(repoRoot, 'test-results', 'bench');

/**
 * What a benchmark measured: tables printed as they are made, and the same figures saved as
 * JSON under test-results/bench/<name>.json for comparison between runs and machines.
 */
export class BenchReport {
  private static readonly all: BenchReport[] = [];
  readonly sections: Section[] = [];

  constructor(readonly name: string) {
    BenchReport.all.push(this);
  }

  /** Prints `rows` as an aligned table under `title` and keeps them for the JSON file. */
  table(title: string, rows: Row[], ...notes: string[]): void {
    const section = { title, rows, notes };
    this.sections.push(section);
    process.stdout.write(`\n${render(section)}\n`);
    this.save();
  }

  save(): string {
    mkdirSync(benchDir, { recursive: true });
    const file = join(benchDir, `${this.name}.json`);
    writeFileSync(file, JSON.stringify({ name: this.name, measuredAt: new Date().toISOString(), sections: this.sections }, null, 2));
    return file;
  }

  /** Every table of the run again, together, for the closing summary of `npm run bench`. */
  static summary(): string {
    return BenchReport.all.flatMap((r) => r.sections.map(render)).join('\n\n');
  }
}

function render({ title, rows, notes }: Section): string {
  if (!rows.length) return [title, '  (nothing measured)', ...notes.map((n) => `  ${n}`)].join('\n');
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const text = (c: Cell) => (c === null || c === undefined ? '–' : String(c));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => text(r[c]).length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    title,
    line(columns),
    line(widths.map((w) => '─'.repeat(w))),
    ...rows.map((r) => line(columns.map((c) => text(r[c])))),
    ...notes.map((n) => `  ${n}`),
  ].join('\n');
}

/** `value` as a multiple of `reference`, e.g. "0.84×"; "–" when either is missing or zero. */
export function ratio(value: number | null | undefined, reference: number | null | undefined): string {
  if (!value || !reference || !Number.isFinite(value) || !Number.isFinite(reference)) return '–';
  return `${(value / reference).toFixed(2)}×`;
}

/** A percentile of unsorted samples (nearest rank); null for none. */
export function percentile(samples: number[], p: number): number | null {
  if (!samples.length) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
