import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

type Reply = { ok: true; url?: string } | { error: string };

/**
 * A throwaway Postgres in its own process (postgres-host.js, which runs the compiled
 * scripts/lib/postgres), paused and resumed on the same port and data over IPC.
 */
export class PostgresHandle {
  private constructor(
    private readonly host: ChildProcess,
    readonly url: string,
  ) {}

  static async start(opts: { dir: string; port: number; database: string }): Promise<PostgresHandle> {
    const host = fork(join(__dirname, 'postgres-host.js'), [opts.dir, String(opts.port), opts.database], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const first = await nextReply(host);
    if ('error' in first) throw new Error(`Postgres did not start: ${first.error}`);
    return new PostgresHandle(host, first.url as string);
  }

  /** Stops the server (fast shutdown: every connection is cut), keeping its data. */
  pause(): Promise<void> {
    return this.command('pause');
  }

  resume(): Promise<void> {
    return this.command('resume');
  }

  /** Stops the server, removes its data and ends the host process. */
  async stop(): Promise<void> {
    if (this.host.exitCode !== null || this.host.signalCode !== null) return;
    const exit = new Promise((resolve) => this.host.once('exit', resolve));
    await this.command('stop').catch(() => this.host.kill('SIGTERM'));
    await exit;
  }

  private async command(cmd: 'pause' | 'resume' | 'stop'): Promise<void> {
    const reply = nextReply(this.host);
    this.host.send({ cmd });
    const answer = await reply;
    if ('error' in answer) throw new Error(`Postgres ${cmd} failed: ${answer.error}`);
  }
}

function nextReply(host: ChildProcess): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the Postgres host exited (${code})`));
    host.once('exit', onExit);
    host.once('message', (message: Reply) => {
      host.off('exit', onExit);
      resolve(message);
    });
  });
}
