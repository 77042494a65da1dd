import { QueryFailedError } from 'typeorm';
import { loggableError, loggablePath } from './log-redaction';

describe('loggablePath', () => {
  it.each([
    ['/checkout?plan=standard&email=jane%40example.com&name=Jane', '/checkout'],
    ['/blackcard?token=abc123', '/blackcard'],
    ['/api/validate-token/s3cr3t-t0ken', '/api/validate-token/[redacted]'],
    ['/api/validate-token/s3cr3t-t0ken?x=1', '/api/validate-token/[redacted]'],
    ['/jane@example.com', '/[redacted]'],
    ['/u/jane%40example.com/x', '/u/[redacted]/x'],
    ['/api/leads', '/api/leads'],
    ['/', '/'],
    ['/assets/index-abc.js#frag', '/assets/index-abc.js'],
  ])('%s → %s', (url, expected) => {
    expect(loggablePath(url)).toBe(expected);
  });
});

describe('loggableError', () => {
  it('keeps the SQLSTATE of a database error but neither its message, detail nor parameters', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      severity: 'ERROR',
      code: '23505',
      detail: 'Key (email_normalized)=(jane@example.com) already exists.',
      table: 'leads',
      constraint: 'uq_leads_email_normalized',
    });
    const err = new QueryFailedError('INSERT INTO leads …', ['jane@example.com', 'Jane'], driverError);
    const logged = loggableError(err);
    expect(logged).toMatchObject({ type: 'QueryFailedError', code: '23505', table: 'leads', constraint: 'uq_leads_email_normalized' });
    expect(JSON.stringify(logged)).not.toMatch(/jane|Jane|duplicate key/);
  });

  it('keeps message and stack of an application error', () => {
    expect(loggableError(new TypeError('boom'))).toMatchObject({
      type: 'TypeError',
      message: 'boom',
      stack: expect.stringContaining('boom'),
    });
  });
});
