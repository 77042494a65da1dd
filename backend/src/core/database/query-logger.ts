import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

const MAX_QUERY_CHARS = 200;
const summary = (query: string): string => query.replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_CHARS);

/**
 * TypeORM's console logger prints a failed query's parameters and the driver's message, which
 * quote the submitted values (e-mail addresses, names). This one logs what locates the problem:
 * the SQLSTATE, the constraint or column, and the parameterised SQL text, never the values.
 */
export class QueryLogger implements TypeOrmLogger {
  private readonly logger = new Logger('Database');

  logQuery(): void {}

  /** TypeORM passes the query's parameters too; they are deliberately never read. */
  logQueryError(error: string | Error, query: string, _parameters?: unknown[]): void {
    const fields = typeof error === 'object' ? (error as Error & { code?: string; constraint?: string; column?: string }) : undefined;
    this.logger.error(
      { code: fields?.code, constraint: fields?.constraint, column: fields?.column, query: summary(query) },
      'Query failed',
    );
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ ms: time, query: summary(query) }, 'Slow query');
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }
}
