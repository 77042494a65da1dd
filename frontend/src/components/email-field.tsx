import type { ChangeEvent, Ref } from 'react';

interface EmailFieldProps {
  /** The input's id; its error message's id is `${id}-error`. */
  id: string;
  label: string;
  /** What is wrong with the address as typed; none: no message, and the field reads as valid. */
  error: string | null;
  /** The message's test id, where a spec looks for it. */
  errorTestId?: string;
  ref?: Ref<HTMLInputElement>;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * The visitor's e-mail address, as every public form asks for it: the e-mail keyboard and
 * autofill, no spell-check, and the form's own message under it, tied to it for screen readers.
 * Uncontrolled, so text typed into a prerendered page before hydration is kept.
 */
export function EmailField({ id, label, error, errorTestId, ref, onChange }: EmailFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        spellCheck={false}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={onChange}
      />
      {error ? (
        <p id={errorId} className="field__error" data-testid={errorTestId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
