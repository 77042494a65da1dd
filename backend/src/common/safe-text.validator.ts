import { ValidateBy, ValidationOptions } from 'class-validator';

/** A UTF-16 half without its pair: validator.js throws on it (encodeURI) and Postgres refuses it in jsonb. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * C0 and C1 control characters (NUL, line breaks, escapes, DEL) and lone surrogates. Postgres
 * refuses NUL in text and jsonb and lone surrogates in jsonb, and none of them belongs in a
 * single-line form field.
 */
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f]|${LONE_SURROGATE.source}`);

export function isSafeText(value: unknown): value is string {
  return typeof value === 'string' && !UNSAFE.test(value);
}

/** Refuses a string with control characters at validation, so it never reaches a batch statement. */
export function IsSafeText(field: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSafeText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isSafeText(value),
        defaultMessage: () => `${field} must not contain control characters (such as line breaks or null bytes)`,
      },
    },
    options,
  );
}
