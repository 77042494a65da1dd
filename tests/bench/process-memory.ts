import { readFileSync } from 'node:fs';

/** Resident memory of a running process in MiB (VmRSS from /proc/<pid>/status), or null once it is gone. */
export function residentMemoryMiB(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB$/m);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
