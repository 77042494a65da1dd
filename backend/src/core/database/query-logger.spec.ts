import { Logger } from '@nestjs/common';
import { QueryLogger } from './query-logger';

describe('QueryLogger', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a failed query by SQLSTATE, constraint and SQL text, never its values or the driver message', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const driverError = Object.assign(new Error('duplicate key value: (email)=(jane@example.com) for "Jane Roe"'), {
      code: '23505',
      constraint: 'uq_leads_email_normalized',
    });
    new QueryLogger().logQueryError(driverError, 'INSERT INTO leads (email, name)\n   VALUES ($1, $2)', ['jane@example.com', 'Jane Roe']);

    expect(error).toHaveBeenCalledWith(
      {
        code: '23505',
        constraint: 'uq_leads_email_normalized',
        column: undefined,
        query: 'INSERT INTO leads (email, name) VALUES ($1, $2)',
      },
      'Query failed',
    );
    expect(JSON.stringify(error.mock.calls)).not.toMatch(/jane|Roe/i);
  });

  it('stays quiet for ordinary queries, whatever their parameters', () => {
    const spies = (['log', 'warn', 'error', 'debug', 'verbose'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined),
    );
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    (new QueryLogger() as unknown as { logQuery(query: string, parameters?: unknown[]): void }).logQuery(
      'INSERT INTO leads (email, name) VALUES ($1, $2)',
      ['jane@example.com', 'Jane Roe'],
    );
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
  });

  it('logs a slow query by its SQL text and duration, never its parameters', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    (new QueryLogger() as unknown as { logQuerySlow(time: number, query: string, parameters?: unknown[]): void }).logQuerySlow(
      1234,
      'SELECT * FROM leads WHERE email = $1',
      ['jane@example.com'],
    );
    expect(warn).toHaveBeenCalledWith({ ms: 1234, query: 'SELECT * FROM leads WHERE email = $1' }, 'Slow query');
    expect(JSON.stringify(warn.mock.calls)).not.toMatch(/jane/i);
  });

  it("never logs a failed query's parameters when the error is a plain string", () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    new QueryLogger().logQueryError('value too long for (email)=(jane@example.com)', 'UPDATE leads SET name = $1', ['Jane Roe']);
    expect(error).toHaveBeenCalledWith(
      { code: undefined, constraint: undefined, column: undefined, query: 'UPDATE leads SET name = $1' },
      'Query failed',
    );
    expect(JSON.stringify(error.mock.calls)).not.toMatch(/jane|Roe/i);
  });
});
