const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
const MAX_LENGTH = 500;

/**
 * Last line of defence for text that reaches a log line or the outbox: error messages can echo
 * what a provider or driver was given. Removes e-mail addresses and caps the length. Names and
 * phone numbers cannot be recognised reliably, so messages must not be built from them at all.
 */
export function redact(text: string): string {
  const clean = text.replace(EMAIL, '[email]');
  return clean.length > MAX_LENGTH ? `${clean.slice(0, MAX_LENGTH)}…` : clean;
}
