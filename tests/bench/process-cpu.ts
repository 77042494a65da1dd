import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU figures (CLK_TCK; 100 on every Linux this runs on). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  ppid: number;
  /** utime + stime of the process itself, in ticks. */
  own: number;
  /** cutime + cstime: what its children that have exited and been waited for used, in ticks. */
  reaped: number;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function stat(pid: number): Stat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After ")": state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    return { ppid: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) };
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds (user + system) a process has used so far; with `tree`, every live descendant's
 * too and what exited ones used (Postgres runs a process per connection under its postmaster).
 * Null off Linux or once the process is gone.
 */
export function cpuMs(pid: number | undefined, tree = false): number | null {
  if (pid === undefined) return null;
  const root = stat(pid);
  if (!root) return null;
  let ticks = root.own + (tree ? root.reaped : 0);
  if (tree) {
    // Every live descendant, not only children: in a container the postmaster is itself a child
    // of the image's `su`, and its backends live as long as the app's pooled connections.
    const children = new Map<number, Array<Stat & { pid: number }>>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const found = stat(Number(name));
      if (found) children.set(found.ppid, [...(children.get(found.ppid) ?? []), { ...found, pid: Number(name) }]);
    }
    const pending = [...(children.get(pid) ?? [])];
    for (let next = pending.pop(); next; next = pending.pop()) {
      ticks += next.own + next.reaped;
      pending.push(...(children.get(next.pid) ?? []));
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
