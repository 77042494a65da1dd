/**
 * The one form of an e-mail address that identifies a person: every lookup, unique key and
 * comparison uses it, and the database stores exactly this string (never a SQL `lower()`, which
 * under the C locale lowers ASCII only). NFC first, so a composed "Ä" and "A" + combining
 * diaeresis are one address; then a full Unicode lower case, as for the domain part.
 */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}
