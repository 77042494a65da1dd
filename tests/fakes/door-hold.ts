import type { IncomingMessage } from 'node:http';

interface HeldAnswer {
  door: string;
  callerGone: Promise<void>;
  release: () => void;
}

/**
 * Holds one answer at a third party's door: the call arrived and was acted on, and its answer
 * waits until `release()`. One hold is shared by every fake of a test; once armed it counts the
 * calls they act on, at any door, and holds the n-th. Meanwhile a test kills the caller: this is
 * the hardest point for exactly-once, the effect done at the third party and not yet recorded by
 * the caller. Released, the fake finds its caller gone and records an answer the caller never
 * learned (so a retry under the same key is no repeat; see exactly-once.ts).
 */
export class DoorHold {
  private countdown = 0;
  private door: string | null = null;
  private held: HeldAnswer | null = null;
  private onHeld: ((door: string) => void) | null = null;

  /**
   * Holds the answer to the `nth` call acted on from now on (at `door` only, if named); resolves
   * with its door's name once it is held.
   */
  arm(nth: number, door: string | null = null): Promise<string> {
    this.countdown = nth;
    this.door = door;
    return new Promise((resolve) => (this.onHeld = resolve));
  }

  /** Stops counting: no later call is held. */
  disarm(): void {
    this.countdown = 0;
    this.onHeld = null;
  }

  /** Lets the held answer (if any) go once its caller's connection has closed, or after `waitMs` if it stays open. */
  async release(waitMs = 2000): Promise<void> {
    this.disarm();
    const held = this.held;
    this.held = null;
    if (!held) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([held.callerGone, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    held.release();
  }

  /**
   * Called by a fake that acted on a call and has its answer ready: null when the answer may go
   * now, or a promise that settles when the held answer is released. `callerGone` resolves when
   * the caller's connection closes.
   */
  atDoor(door: string, callerGone: () => Promise<void>): Promise<void> | null {
    if (this.countdown === 0 || (this.door !== null && door !== this.door) || --this.countdown > 0) return null;
    const onHeld = this.onHeld;
    this.onHeld = null;
    return new Promise<void>((release) => {
      this.held = { door, callerGone: callerGone(), release };
      onHeld?.(door);
    });
  }
}

/** Resolves when the HTTP caller's connection has closed (at once if it already has). */
export function httpCallerGone(req: IncomingMessage): Promise<void> {
  if (req.socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => req.socket.once('close', () => resolve()));
}
