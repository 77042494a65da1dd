/** Progress lines for the orchestration commands: short, timestamped, human-oriented. */
export function step(message: string): void {
  const time = new Date().toISOString().slice(11, 19);
  process.stdout.write(`[${time}] ${message}\n`);
}
