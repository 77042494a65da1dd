import { LONE_SURROGATE } from './safe-text.validator';

export interface InputHazard {
  /** Dotted path of the offending value ('' for the body itself). */
  path: string;
  reason: 'too-deep' | 'lone-surrogate' | 'nul';
}

/**
 * The first thing in parsed JSON that would break code after it rather than fail validation:
 * nesting deeper than `maxDepth` (class-transformer, the validation pipe and JSON.stringify all
 * recurse, so a 16 KB body of brackets overflows the stack), an unpaired surrogate in a string or
 * key, and with `nul` a NUL character (Postgres stores neither in text or jsonb). Walks without
 * recursion, so checking cannot overflow either.
 */
export function findInputHazard(value: unknown, maxDepth: number, opts: { nul?: boolean } = {}): InputHazard | null {
  const badText = (text: string): InputHazard['reason'] | null =>
    LONE_SURROGATE.test(text) ? 'lone-surrogate' : opts.nul && text.includes('\u0000') ? 'nul' : null;
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (pending.length > 0) {
    const item = pending.pop() as { value: unknown; path: string; depth: number };
    if (typeof item.value === 'string') {
      const reason = badText(item.value);
      if (reason) return { path: item.path, reason };
    } else if (item.value !== null && typeof item.value === 'object') {
      if (item.depth >= maxDepth) return { path: item.path, reason: 'too-deep' };
      for (const [key, inner] of Object.entries(item.value)) {
        const path = item.path ? `${item.path}.${key}` : key;
        const reason = badText(key);
        if (reason) return { path, reason };
        pending.push({ value: inner, path, depth: item.depth + 1 });
      }
    }
  }
  return null;
}

/** A field name fit to quote back to a person; anything else (controls, odd symbols, huge) is described instead. */
export function quotedField(name: string): string {
  return /^[\w.[\]-]{1,64}$/.test(name) ? `"${name}"` : 'with an unusual name';
}
