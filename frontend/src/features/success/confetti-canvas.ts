/**
 * The celebration itself (confetti.ts loads it once a payment is confirmed): paper squares drawn on
 * a canvas of our own on the main thread, a burst every `burstEveryMs` for `durationMs`. A few
 * dozen particles and one canvas fill per frame, so a frame stays a few milliseconds even on a slow
 * phone (the page's Total Blocking Time budget), and no worker (the Content-Security-Policy allows
 * none from blob:). Motion is measured in milliseconds, not frames: a starved device drops frames
 * instead of stretching the celebration.
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
const MAX_PIXEL_RATIO = 2;

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

export interface ConfettiTiming {
  durationMs: number;
  burstEveryMs: number;
  /** The longest the last particles may fall after the last burst. */
  fallMs: number;
}

/** Starts the celebration on a new full-window canvas; the returned function ends it and removes the canvas. */
export function launchConfetti({ durationMs, burstEveryMs, fallMs }: ConfettiTiming): () => void {
  const canvas = document.createElement('canvas');
  canvas.className = 'success__confetti';
  canvas.setAttribute('aria-hidden', 'true');
  document.body.append(canvas);
  const context = canvas.getContext('2d');
  const started = performance.now();
  const endsAt = started + durationMs;
  let particles: Particle[] = [];
  let nextBurst = started;
  let last = started;
  let frame = 0;
  let stopped = false;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    cancelAnimationFrame(frame);
    canvas.remove();
  };

  const burst = (now: number, width: number, height: number) => {
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

  const tick = (now: number) => {
    if (stopped) return;
    const width = window.innerWidth;
    const height = window.innerHeight;
    const ratio = Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO);
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const dt = Math.min(now - last, 64);
    last = now;
    while (now < endsAt && now >= nextBurst) {
      burst(now, width, height);
      nextBurst += burstEveryMs;
    }
    const drag = DRAG ** (dt / 16);
    particles = particles.filter((p) => now - p.born < LIFE_MS && p.y < height + 20);
    if (!context) return stop();
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
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
    if (now >= endsAt && (particles.length === 0 || now >= endsAt + fallMs)) return stop();
    frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
  return stop;
}
