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

  it('stays quiet for ordinary queries', () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    new QueryLogger().logQuery();
    expect(log).not.toHaveBeenCalled();
  });
});
