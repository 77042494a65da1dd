import { ChildProcess, spawn } from 'node:child_process';
import { step } from './log';

export interface Managed {
  name: string;
  child: ChildProcess;
  stop(timeoutMs?: number): Promise<void>;
}

/** Starts a long-running child whose output goes straight to ours (its logs are JSON lines). */
export function startProcess(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, quiet = false, cwd?: string): Managed {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', quiet ? 'ignore' : 'inherit', quiet ? 'pipe' : 'inherit'] });
  child.stderr?.resume();
  return {
    name,
    child,
    stop: (timeoutMs = 15_000) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const killer = setTimeout(() => {
          step(`${name} did not stop within ${timeoutMs / 1000} s; killing it`);
          child.kill('SIGKILL');
        }, timeoutMs);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Polls a URL until it answers 2xx (or the child dies, or time runs out). */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with code ${child.exitCode} before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
