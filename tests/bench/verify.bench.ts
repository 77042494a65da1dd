import autocannon from 'autocannon';
import type { Lifecycle } from '../../scripts/lib/lifecycle';
import { step } from '../../scripts/lib/log';
import { startApp, startThrowawayData } from '../../scripts/lib/stack';

/**
 * GET /api/verify-payment/{id} for a settled sandbox payment under load: what a crowd of
 * success pages polling costs. Answers come from Postgres; the provider is not asked again
 * once the payment is settled, which the figures show as zero non-2xx and flat latency.
 */
export async function benchVerify(life: Lifecycle): Promise<void> {
  const duration = Number(process.env.BENCH_SECONDS ?? 20);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
  const data = await startThrowawayData(life, { name: 'benchverify', pgPort: 54360, redisPort: 6394 });
  const app = await startApp(life, data, 3400, {
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_WRITES: '100000000',
    RATE_LIMIT_INTENTS_PER_CLIENT: '100000000',
  });
  try {
    const paymentId = await settledPayment(app.url);
    step(`Warming up, then ${duration} s of GET /api/verify-payment/{id} (settled) with ${connections} connections`);
    await fire(`${app.url}/api/verify-payment/${paymentId}`, 3, connections);
    const result = await fire(`${app.url}/api/verify-payment/${paymentId}`, duration, connections);
    process.stdout.write(
      [
        '',
        'GET /api/verify-payment/{id} (settled sandbox payment)',
        `  requests/s   mean ${result.requests.mean.toFixed(0)}   min ${result.requests.min}   max ${result.requests.max}`,
        `  latency ms   p50 ${result.latency.p50}   p90 ${result.latency.p90}   p99 ${result.latency.p99}   max ${result.latency.max}`,
        `  responses    2xx ${result['2xx']}   non-2xx ${result.non2xx}   errors ${result.errors}   timeouts ${result.timeouts}`,
        '',
      ].join('\n'),
    );
  } finally {
    await app.stop();
    await data.stop();
  }
}

/** A one-time sandbox payment with the success card, waited on until verification says succeeded. */
async function settledPayment(baseUrl: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  const { clientSecret } = (await post('/api/create-payment-intent', {
    email: 'bench-buyer@example.com',
    name: 'Bench Buyer',
    source: 'clear',
    plan: 'Full Payment',
    amount: 997,
  })) as { clientSecret: string };
  const year = new Date().getFullYear() + 2;
  await post('/api/sandbox/confirm-payment', {
    clientSecret,
    card: { number: '4242424242424242', expMonth: 12, expYear: year, cvc: '123' },
    returnUrl: `${baseUrl}/success`,
  });
  const id = clientSecret.split('_secret_')[0];
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${baseUrl}/api/verify-payment/${id}`);
    if (res.ok && ((await res.json()) as { status: string }).status === 'succeeded') return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The sandbox payment did not settle within 10 s');
}

function fire(url: string, duration: number, connections: number): Promise<autocannon.Result> {
  return new Promise((resolvePromise, reject) => {
    autocannon({ url, method: 'GET', duration, connections }, (err, result) => (err ? reject(err) : resolvePromise(result)));
  });
}
