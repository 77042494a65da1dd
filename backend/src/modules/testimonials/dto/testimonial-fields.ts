import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsInt, IsString, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { IsSafeText } from '../../../common/safe-text.validator';
import { TESTIMONIAL_RATING_MAX, TESTIMONIAL_RATING_MIN } from '@contracts/admin';
import { safeUrl } from '../safe-url';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** The spec's form sends '' for an empty URL field: that means no URL. */
const emptyToNull = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || null : value);

/** Control characters other than tab and line breaks, and unpaired UTF-16 halves (Postgres refuses NUL). */
const UNSAFE_MULTILINE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function compose(...rules: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

/** Applies the rules only when the field is present (PATCH); null is present and must pass them. */
export const whenPresent = ValidateIf((_object: object, value: unknown) => value !== undefined);

/** Text a person must fill in; single line unless `multiline`. Trimmed; HTML is kept as text. */
export function RequiredText(label: string, max: number, { multiline = false } = {}): PropertyDecorator {
  return compose(
    Transform(trim),
    IsDefined({ message: `${label} is required` }),
    IsString({ message: `${label} must be text` }),
    ValidateBy({
      name: 'isNotBlank',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.length > 0,
        defaultMessage: () => `${label} is required`,
      },
    }),
    MaxLength(max, { message: `${label} must be at most ${max} characters` }),
    multiline
      ? ValidateBy({
          name: 'isSafeText',
          validator: {
            validate: (value: unknown) => typeof value !== 'string' || !UNSAFE_MULTILINE.test(value),
            defaultMessage: () => `${label} must not contain control characters (line breaks are fine)`,
          },
        })
      : IsSafeText(label),
  );
}

/** An optional link: empty or null for none, otherwise an absolute http(s) URL (no javascript:, data:…). */
export function OptionalHttpUrl(label: string): PropertyDecorator {
  return compose(
    Transform(emptyToNull),
    ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null),
    IsString({ message: `${label} must be text` }),
    MaxLength(2048, { message: `${label} must be at most 2048 characters` }),
    ValidateBy({
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && safeUrl(value) !== null && !/\s/.test(value),
        defaultMessage: () => `${label} must be an http(s) URL, such as https://example.com/video`,
      },
    }),
  );
}

export function Rating(): PropertyDecorator {
  const message = `Rating must be a whole number from ${TESTIMONIAL_RATING_MIN} to ${TESTIMONIAL_RATING_MAX}`;
  return compose(whenPresent, IsInt({ message }), Min(TESTIMONIAL_RATING_MIN, { message }), Max(TESTIMONIAL_RATING_MAX, { message }));
}

export function Featured(): PropertyDecorator {
  return compose(whenPresent, IsBoolean({ message: 'featured must be true or false' }));
}
