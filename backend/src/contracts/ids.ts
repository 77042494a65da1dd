const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a UUID in its text form: the shape of every id Postgres makes for us (orders, refunds, outbox rows). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
