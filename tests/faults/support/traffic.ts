import { request as httpRequest } from 'node:http';
import type { FakeAffiliateServer } from '../../fakes/affiliate-server';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `probe` is truthy; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T> | T, what: string, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await probe();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** One answer, or the transport error (reset, refused, timeout) where there was none. */
export interface Outcome {
  status: number;
  body: unknown;
  ms: number;
  error?: string;
}

export async function postJson(
  url: string,
  body: unknown,
  opts: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text for the assertion message.
    }
    return { status: res.status, body: parsed, ms: Date.now() - started };
  } catch (err) {
    const error = err as Error & { cause?: { code?: string } };
    return { status: 0, body: null, ms: Date.now() - started, error: error.cause?.code ?? error.name };
  }
}

export async function getJson(url: string, timeoutMs = 20_000): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, body: await res.json().catch(() => null), ms: Date.now() - started };
  } catch (err) {
    const error = err as Error & { cause?: { code?: string } };
    return { status: 0, body: null, ms: Date.now() - started, error: error.cause?.code ?? error.name };
  }
}

export interface PostedLead {
  email: string;
  outcome: Outcome;
}

/**
 * Posts leads (unique e-mails, a referral so each owes an affiliate signup) from `concurrency`
 * clients until `stop()` says so, or `count` are sent. Resolves with every lead and its answer.
 */
export async function leadStream(
  apiUrl: string,
  opts: { prefix: string; concurrency: number; count?: number; stop?: () => boolean; pauseMs?: number },
): Promise<PostedLead[]> {
  const posted: PostedLead[] = [];
  let next = 0;
  const more = () => (opts.count === undefined || next < opts.count) && !(opts.stop?.() ?? false);
  const client = async () => {
    while (more()) {
      const email = `${opts.prefix}-${next++}@example.com`;
      const outcome = await postJson(`${apiUrl}/api/leads`, { email, name: 'Fault Lead', referral: 'partner7' });
      posted.push({ email, outcome });
      if (opts.pauseMs) await sleep(opts.pauseMs);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, client));
  return posted;
}

/**
 * Per lead id (the signup's uid): how many signups the fake acted on, and every attempt's
 * answer. An attempt answered "duplicate" after an acted-on one is a second send that only the
 * fake's own de-duplication absorbed: the product's ledger should never let that happen unless
 * the first answer was lost (a timeout, a crash before the outcome was recorded).
 */
export function signupTally(affiliate: FakeAffiliateServer): Map<string, { ok: number; duplicate: number; failed: number; lost: number }> {
  const tally = new Map<string, { ok: number; duplicate: number; failed: number; lost: number }>();
  for (const attempt of affiliate.signupAttempts()) {
    const uid = attempt.params.uid;
    const entry = tally.get(uid) ?? { ok: 0, duplicate: 0, failed: 0, lost: 0 };
    entry[attempt.answer] += 1;
    tally.set(uid, entry);
  }
  return tally;
}

/**
 * Waits until every owed job has ended (done, or failed for good): nothing more is on its way to
 * a fake, so what the fakes counted is final.
 */
export async function everyOwedJobFinished(
  db: { query(sql: string): Promise<{ rows: Array<{ n: number }> }> },
  timeoutMs = 45_000,
): Promise<void> {
  await waitFor(
    async () => (await db.query(`SELECT count(*)::int AS n FROM outbox WHERE completed_at IS NULL AND failed_at IS NULL`)).rows[0].n === 0,
    'every owed job finished',
    timeoutMs,
    250,
  );
}

/**
 * Idempotency keys the affiliate fake received more often than the ledger claimed them. The
 * ledger's one rule is "claim, then call": every call is preceded by a claim that counts an
 * attempt, so calls can never outnumber claims (claims may outnumber calls: a crash between the
 * two). A call on a finished record, or before its claim, shows up here.
 */
export async function callsWithoutClaim(
  affiliate: FakeAffiliateServer,
  db: { query(sql: string, params?: unknown[]): Promise<{ rows: Array<{ key: string; attempts: number }> }> },
): Promise<string[]> {
  const calls = new Map<string, number>();
  for (const attempt of affiliate.attempts) {
    const key = attempt.idempotencyKey ?? '(no key)';
    calls.set(key, (calls.get(key) ?? 0) + 1);
  }
  const { rows } = await db.query(`SELECT key, attempts FROM side_effects WHERE key = ANY($1::text[])`, [[...calls.keys()]]);
  const claims = new Map(rows.map((row) => [row.key, row.attempts]));
  return [...calls]
    .filter(([key, n]) => n > (claims.get(key) ?? 0))
    .map(([key, n]) => `${key}: ${n} call(s), ${claims.get(key) ?? 0} claim(s)`);
}

/**
 * One POST on a connection of its own (no keep-alive pool), so a refused connection (the server
 * no longer listens: nothing was sent) is told apart from a reset of a request it had taken.
 */
export function postOnFreshConnection(url: string, body: unknown, timeoutMs = 20_000): Promise<Outcome> {
  const started = Date.now();
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), connection: 'close' },
      timeout: timeoutMs,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Kept as text.
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, ms: Date.now() - started });
      });
      res.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ status: 0, body: null, ms: Date.now() - started, error: err.code ?? err.message }),
      );
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ status: 0, body: null, ms: Date.now() - started, error: err.code ?? err.message }),
    );
    req.end(payload);
  });
}
