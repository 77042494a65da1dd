/**
 * Postgres SQLSTATEs that mean the server is going away or not taking connections (class 57:
 * admin or crash shutdown, cannot connect now; class 08: connection exceptions).
 */
const UNAVAILABLE_SQLSTATE = /^(57P0[1-4]|08\w{3})$/;
/** Node's socket errors when the server is down or the connection was cut. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** node-pg's own wording for a lost connection or an exhausted connect timeout (it sets no code). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i;

/**
 * Whether `err` says the database cannot be reached right now, as opposed to a fault in the
 * request or in our code: the first is a 503 the client may retry, the second a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message, driverError } = err as { code?: unknown; message?: unknown; driverError?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  // TypeORM wraps the driver's error in a QueryFailedError.
  return driverError !== undefined && driverError !== err && isDatabaseUnavailable(driverError);
}
