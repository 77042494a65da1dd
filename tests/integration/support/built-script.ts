import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** How a compiled script ended, and all it printed. */
export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `dist/scripts/<name>.js` (what `npm run <name>` runs, as built by `npm test`) with `args`,
 * exactly `env` as its environment, and `input` on its standard input.
 */
export function runBuiltScript(name: string, options: { args?: string[]; env: NodeJS.ProcessEnv; input?: string }): Promise<ScriptRun> {
  const script = join(__dirname, '..', '..', '..', 'dist', 'scripts', `${name}.js`);
  if (!existsSync(script)) throw new Error(`${script} is missing: run "npm run build:server" first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...(options.args ?? [])], { env: options.env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    // 'close', not 'exit': 'exit' may come before the last of the output has been read from the pipes.
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
