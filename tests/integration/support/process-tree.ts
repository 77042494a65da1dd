import { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Every live descendant of `pid` (children, grandchildren…), read from /proc. */
export function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // A zombie has exited; only its parent's wait() is missing.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

export { freePort, portIsFree } from '../../../scripts/lib/ports';

/** Polls `check` until it holds or `timeoutMs` passes; resolves with whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Collects a child's output and resolves when it contains `text` (rejects if the child exits first). */
export function waitForOutput(child: ChildProcess, text: string, timeoutMs: number): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`"${text}" not printed within ${timeoutMs} ms:\n${output.slice(-3000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before printing "${text}":\n${output.slice(-3000)}`));
    });
  });
}

export const exitOf = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
