import { isDatabaseUnavailable } from './database-unavailable';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['an admin shutdown', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a server still starting', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a cut connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a wrapped driver error', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '57P01' }) })],
  ])('is true for %s', (_, err) => expect(isDatabaseUnavailable(err)).toBe(true));

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['invalid text', Object.assign(new Error('invalid byte sequence'), { code: '22021' })],
    ['a bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('is false for %s', (_, err) => expect(isDatabaseUnavailable(err)).toBe(false));
});
