import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsSafeText } from './safe-text.validator';

/** The one message for any e-mail field a person fills in (the spec's wording). */
const EMAIL_MESSAGE = 'Please enter a valid email address';

function applyAll(rules: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

/** Text, at most `max` characters, no control characters; required unless `optional`. */
export function Text(field: string, max: number, optional = false): PropertyDecorator {
  return applyAll([
    ...(optional ? [IsOptional()] : [IsNotEmpty({ message: `${field} is required` })]),
    IsString({ message: `${field} must be text` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    IsSafeText(field),
  ]);
}

/** An optional single-line text field: text, at most `max` characters, no control characters. */
export function OptionalText(field: string, max: number): PropertyDecorator {
  return Text(field, max, true);
}

/** A required e-mail address as people type it: valid, at most 254 characters, no control characters. */
export function EmailField(): PropertyDecorator {
  return applyAll([IsEmail({}, { message: EMAIL_MESSAGE }), MaxLength(254, { message: EMAIL_MESSAGE }), IsSafeText('email')]);
}
