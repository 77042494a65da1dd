/** Progress lines for the orchestration commands: short, timestamped, human-oriented. */
export function step(message: string): void {
  const time = new Date().toISOString().slice(11, 19);
  process.stdout.write(`[${time}] ${message}\n`);
}

export function fail(message: string): never {
  process.stderr.write(`\n✖ ${message}\n`);
  process.exit(1);
}
