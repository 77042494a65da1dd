/**
 * What of a request or an error may reach a log line. Query strings carry personal data (the
 * lead form sends the visitor on to /checkout?email=…&name=…) and invitation tokens, and a
 * database error quotes the values it refused; logs keep only what locates the problem.
 */

const REDACTED = '[redacted]';

/** A segment that follows one named like "validate-token" is the token itself. */
const SECRET_FOLLOWS = /token/i;
/** An address typed or pasted into a path. */
const LOOKS_LIKE_EMAIL = /@|%40/i;

/** The request path without query string or fragment, with tokens and e-mail addresses masked. */
export function loggablePath(url: string): string {
  const path = url.split(/[?#]/, 1)[0];
  const segments = path.split('/');
  return segments
    .map((segment, i) =>
      segment && (LOOKS_LIKE_EMAIL.test(segment) || (i > 0 && SECRET_FOLLOWS.test(segments[i - 1]))) ? REDACTED : segment,
    )
    .join('/');
}

interface DatabaseErrorFields {
  code?: string;
  table?: string;
  column?: string;
  constraint?: string;
  routine?: string;
}

/**
 * An error as it may be logged. Postgres errors (and TypeORM's wrapper, which also carries the
 * query parameters) keep their SQLSTATE and location but lose message, detail and parameters,
 * which quote the submitted values.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const driver = (err as { driverError?: unknown }).driverError;
  const database = (driver ?? err) as Error & DatabaseErrorFields & { severity?: unknown };
  if (driver !== undefined || typeof database.severity === 'string') {
    const { code, table, column, constraint, routine } = database;
    return { type: err.name, code, table, column, constraint, routine, stack: stackFrames(err) };
  }
  return { type: err.name, message: err.message, stack: err.stack };
}

/** The stack without its first line, which repeats the message. */
function stackFrames(err: Error): string | undefined {
  return err.stack?.split('\n').slice(1).join('\n');
}
