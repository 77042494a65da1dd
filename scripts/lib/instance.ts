import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { portIsFree } from './ports';

interface InstanceRecord {
  pid: number;
  ports: Record<string, number>;
  startedAt: string;
}

const isOurStart = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('start.js') || cmdline.includes('dev.js');
  } catch {
    return true;
  }
};

const describePorts = (ports: Record<string, number>): string =>
  Object.entries(ports)
    .map(([name, port]) => `${name}=${port}`)
    .join(', ');

/**
 * One `npm start` per data folder: a second one says what is running and how to stop it, and a
 * busy port is named with the variable that moves it, before anything is started.
 * Resolves with the function that releases the claim.
 */
export async function claimInstance(dataDir: string, ports: Record<string, number>): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'npm-start.json');
  if (existsSync(file)) {
    const running = JSON.parse(readFileSync(file, 'utf8')) as InstanceRecord;
    if (running.pid !== process.pid && isOurStart(running.pid)) {
      throw new Error(
        `The funnel is already running from this folder (pid ${running.pid}, since ${running.startedAt}; ${describePorts(running.ports)}). ` +
          `Stop it with Ctrl-C in its terminal or: kill ${running.pid}`,
      );
    }
    unlinkSync(file);
  }
  for (const [name, port] of Object.entries(ports)) {
    if (!(await portIsFree(port))) {
      throw new Error(
        `Port ${port} (${name}) is in use by another program. Stop that program or choose another port: ${name}=<port> npm start`,
      );
    }
  }
  const record: InstanceRecord = { pid: process.pid, ports, startedAt: new Date().toISOString() };
  writeFileSync(file, JSON.stringify(record), { flag: 'wx' });
  return () => {
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as InstanceRecord).pid === process.pid) unlinkSync(file);
    return Promise.resolve();
  };
}
