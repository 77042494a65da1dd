import { SmtpSink } from '../fakes/smtp-sink';
import { SmtpSinkInspector } from '../fakes/smtp-sink-inspector';

/**
 * The SMTP sink as a process of its own, so a benchmark can read the CPU it uses apart from the
 * load generator's: prints one JSON line `{ smtpUrl, inspectorUrl }` once both listen, and serves
 * until it is sent SIGTERM. SMTP_SINK_HOST=0.0.0.0 lets containers reach it.
 */
async function main(): Promise<void> {
  // The bench counts messages by Message-ID and recipient: it reads no bodies.
  const sink = new SmtpSink({ bodies: false });
  const smtpUrl = await sink.start(0, process.env.SMTP_SINK_HOST ?? '127.0.0.1');
  const inspector = new SmtpSinkInspector(sink);
  const inspectorUrl = await inspector.start();
  process.stdout.write(`${JSON.stringify({ smtpUrl, inspectorUrl })}\n`);
  process.once('SIGTERM', () => {
    void Promise.all([inspector.stop(), sink.stop()]).then(() => process.exit(0));
  });
}

void main();
