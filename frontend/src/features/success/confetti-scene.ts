/**
 * The celebration's particles (confetti-canvas.ts draws them, in a worker where it can): paper
 * squares, a burst every `burstEveryMs` for `durationMs`. Motion is measured in milliseconds, not
 * frames: a starved device drops frames instead of stretching the celebration. Imports nothing, so
 * the worker's bundle is this file and confetti-worker.ts alone.
 */
const COLORS = ['#26ccff', '#a25afd', '#ff5e7e', '#88ff5a', '#fcff42', '#ffa62d', '#ff36ff'];
const PER_BURST = 24;
/** Upward spread either side of vertical, and the launch speed range, in px/ms. */
const SPREAD = (35 * Math.PI) / 180;
const SPEED = [0.55, 0.95] as const;
const GRAVITY = 0.0011;
/** Share of velocity kept per 16 ms. */
const DRAG = 0.97;
const LIFE_MS = 2800;
/** Beyond this the canvas costs more than it shows. */
export const MAX_PIXEL_RATIO = 2;

export interface ConfettiTiming {
  durationMs: number;
  burstEveryMs: number;
  /** The longest the last particles may fall after the last burst. */
  fallMs: number;
}

/** The canvas's size in CSS pixels and its pixel ratio. */
export interface ConfettiSize {
  width: number;
  height: number;
  ratio: number;
}

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  angle: number;
  spin: number;
  size: number;
  color: string;
  born: number;
}

type Canvas2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** A scene started at `started`; `draw` paints one frame at `now` and says whether the celebration goes on. */
export function createConfettiScene({ durationMs, burstEveryMs, fallMs }: ConfettiTiming, started: number) {
  const endsAt = started + durationMs;
  let particles: Particle[] = [];
  let nextBurst = started;
  let last = started;

  const burst = (now: number, { width, height }: ConfettiSize) => {
    const x = width * (0.2 + Math.random() * 0.6);
    const y = height * 0.35;
    for (let i = 0; i < PER_BURST; i += 1) {
      const direction = -Math.PI / 2 + (Math.random() * 2 - 1) * SPREAD;
      const speed = SPEED[0] + Math.random() * (SPEED[1] - SPEED[0]);
      particles.push({
        x,
        y,
        vx: Math.cos(direction) * speed,
        vy: Math.sin(direction) * speed,
        angle: Math.random() * Math.PI,
        spin: (Math.random() - 0.5) * 0.02,
        size: 6 + Math.random() * 5,
        color: COLORS[Math.floor(Math.random() * COLORS.length)],
        born: now,
      });
    }
  };

  const draw = (context: Canvas2D, now: number, size: ConfettiSize): boolean => {
    const dt = Math.min(Math.max(now - last, 0), 64);
    last = now;
    while (now < endsAt && now >= nextBurst) {
      burst(now, size);
      nextBurst += burstEveryMs;
    }
    const drag = DRAG ** (dt / 16);
    particles = particles.filter((p) => now - p.born < LIFE_MS && p.y < size.height + 20);
    context.setTransform(size.ratio, 0, 0, size.ratio, 0, 0);
    context.clearRect(0, 0, size.width, size.height);
    for (const p of particles) {
      p.vx *= drag;
      p.vy = p.vy * drag + GRAVITY * dt;
      p.x += p.vx * dt;
      p.y += p.vy * dt;
      p.angle += p.spin * dt;
      context.globalAlpha = Math.max(0, 1 - (now - p.born) / LIFE_MS);
      context.fillStyle = p.color;
      // A square seen turning: its height follows the angle.
      context.fillRect(p.x, p.y, p.size, p.size * Math.abs(Math.cos(p.angle)));
    }
    return now < endsAt || (particles.length > 0 && now < endsAt + fallMs);
  };

  return { draw };
}

/** Fits the canvas's pixels to `size`. */
export function fitCanvas(canvas: HTMLCanvasElement | OffscreenCanvas, { width, height, ratio }: ConfettiSize): void {
  const w = Math.round(width * ratio);
  const h = Math.round(height * ratio);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
}
