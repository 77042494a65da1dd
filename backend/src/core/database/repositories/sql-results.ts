/** TypeORM answers an UPDATE or DELETE on Postgres with [rows, affected count]: the count. */
export function affectedRows(result: unknown): number {
  return (result as [unknown[], number])[1];
}

/** `%text%` for LIKE / ILIKE, with LIKE's own wildcards (and its escape character) taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
