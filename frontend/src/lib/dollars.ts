/** Cents of a dollar amount typed by a person ("12", "12.5", "$12.50"); null for anything else. */
export function parseDollars(text: string): number | null {
  const match = text
    .trim()
    .replace(/^\$/, '')
    .match(/^(\d{1,7})(?:\.(\d{1,2}))?$/);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
