import { Client } from 'pg';

/** Tables holding what visitors, buyers, admins and the payment provider sent us. */
const TABLES = [
  'leads',
  'lead_submissions',
  'invitations',
  'invitation_submissions',
  'orders',
  'testimonials',
  'funnel_events',
  'payment_events',
  'sandbox_objects',
  'admin_audit_log',
];

/** Columns of our own making that may hold any text (error reports), and provider payloads stored verbatim. */
const EXEMPT = new Set(['outbox.last_error', 'side_effects.last_error', 'sandbox_objects.last_error', 'payment_events.payload']);
/** Multi-line by design (the testimonial form allows line breaks and tabs). */
const MULTILINE = new Set(['testimonials.content']);
const EMAIL_COLUMNS = new Set(['email', 'email_normalized']);
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** The longest field any endpoint accepts is a 5,000-character testimonial. */
const MAX_TEXT = 5000;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

function problemsIn(value: unknown, where: string, multiline: boolean, out: string[]): void {
  if (typeof value === 'string') {
    if ((multiline ? CONTROL_BUT_LINES : CONTROL).test(value))
      out.push(`${where}: control character in ${JSON.stringify(value.slice(0, 60))}`);
    if (value.length > MAX_TEXT) out.push(`${where}: ${value.length} characters`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => problemsIn(item, `${where}[${i}]`, multiline, out));
  } else if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value)) {
      if (PROTOTYPE_KEYS.has(key)) out.push(`${where}: key "${key}"`);
      problemsIn(key, `${where} key`, false, out);
      problemsIn(inner, `${where}.${key}`, multiline, out);
    }
  }
}

/**
 * Everything stored since `since` that no endpoint should have accepted: control characters,
 * prototype keys in JSON, oversized text, e-mail columns that are not addresses.
 */
export async function malformedStoredData(databaseUrl: string, since: Date): Promise<string[]> {
  const client = new Client(databaseUrl);
  await client.connect();
  const problems: string[] = [];
  try {
    for (const table of TABLES) {
      const { rows: columns } = await client.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [table],
      );
      const names = columns.map((c) => c.column_name);
      const stamp = ['created_at', 'received_at'].find((c) => names.includes(c));
      const { rows } = await client.query(`SELECT * FROM ${table}${stamp ? ` WHERE ${stamp} >= $1` : ''}`, stamp ? [since] : []);
      for (const row of rows as Array<Record<string, unknown>>) {
        for (const [column, value] of Object.entries(row)) {
          const name = `${table}.${column}`;
          if (EXEMPT.has(name) || value === null) continue;
          problemsIn(value, name, MULTILINE.has(name), problems);
          if (EMAIL_COLUMNS.has(column) && (typeof value !== 'string' || value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))) {
            problems.push(
              `${name}: not an e-mail address: ${JSON.stringify((typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 60))}`,
            );
          }
        }
      }
    }
  } finally {
    await client.end();
  }
  return problems;
}

/** Outbox rows (jobs owed for accepted requests) created since `since` that have not finished, and those that failed. */
export async function outboxState(
  databaseUrl: string,
  since: Date,
): Promise<{ open: number; failed: Array<{ job_name: string; last_error: string }> }> {
  const client = new Client(databaseUrl);
  await client.connect();
  try {
    const {
      rows: [{ open }],
    } = await client.query(
      // Jobs owed for later (a lead's abandoned-checkout reminder, due in an hour) are not yet due.
      `SELECT count(*)::int AS open FROM outbox
        WHERE created_at >= $1 AND completed_at IS NULL AND failed_at IS NULL AND (available_at IS NULL OR available_at <= now())`,
      [since],
    );
    const { rows: failed } = await client.query(
      `SELECT job_name, last_error FROM outbox WHERE created_at >= $1 AND failed_at IS NOT NULL`,
      [since],
    );
    return { open, failed };
  } finally {
    await client.end();
  }
}
