import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * SITE_DIR set only in `.env` is honoured by the compiled API and worker started directly
 * (`node dist/…/main.js`), as a deployment without Compose starts them: the site folder is read as
 * its modules load, so `.env` must be read before them. The site folder named here has a mistake,
 * so each process ends naming it, which only a process that read this folder can do.
 */
const root = join(__dirname, '..', '..');
const MAINS = {
  API: join(root, 'dist', 'backend', 'src', 'main.js'),
  worker: join(root, 'dist', 'worker', 'src', 'main.js'),
};

let work: string;
beforeAll(() => {
  for (const main of Object.values(MAINS)) if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build:server" first`);
  work = mkdtempSync(join(tmpdir(), 'env-file-site-'));
  cpSync(join(root, 'site'), join(work, 'site'), { recursive: true });
  const settings = JSON.parse(readFileSync(join(work, 'site', 'site.json'), 'utf8'));
  writeFileSync(join(work, 'site', 'site.json'), JSON.stringify({ ...settings, currency: 'euro' }));
  writeFileSync(join(work, '.env'), `SITE_DIR=${join(work, 'site')}\n`);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(main: string): Promise<{ code: number | null; output: string }> {
  // Nothing of the test run's own environment that names a site or a settings file.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: 'production' };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after 20 s:\n${output}`));
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it.each(Object.entries(MAINS))('the %s reads the site folder that SITE_DIR in .env names', async (_name, main) => {
  const { code, output } = await run(main);
  expect(code).toBe(1);
  expect(output).toContain(`${join(work, 'site', 'site.json')}: currency: must be an ISO 4217 code`);
});
