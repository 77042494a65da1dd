// Its own module, without the site schema (zod), so the browser bundle can import it alone.

/** A `{placeholder}` of a copy file: a site term (`{price:standard}`) or a value the code fills. */
export const PLACEHOLDER = /\{([a-zA-Z][\w:-]*)\}/g;

/** Fills the placeholders the code supplies at run time: fill('Watch {name}', { name }). */
export function fill(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
