import { TESTIMONIAL_RATING_MAX, TESTIMONIAL_RATING_MIN } from '@contracts/admin';
import { useId, useRef, useState, type FormEvent } from 'react';
import { testimonialManager } from '@/content/admin';
import { validateTestimonial, type TestimonialErrors, type TestimonialValues } from '../testimonial-values';

const copy = testimonialManager.form;
const RATINGS = Array.from({ length: TESTIMONIAL_RATING_MAX - TESTIMONIAL_RATING_MIN + 1 }, (_, i) => TESTIMONIAL_RATING_MAX - i);
const FIELD_ORDER = ['name', 'title', 'content', 'videoUrl', 'imageUrl'] as const;

type FieldName = (typeof FIELD_ORDER)[number];

interface TextFieldProps {
  id: string;
  name: FieldName;
  label: string;
  input: 'input' | 'textarea';
  type: string;
  value: string;
  error: string | undefined;
  onChange: (name: FieldName, value: string) => void;
}

/** One text field of the form, with its error below it (and named by it) while it has one. */
function TextField({ id, name, label, input, type, value, error, onChange }: TextFieldProps) {
  const errorId = `${id}-error`;
  const shared = { id, name, value, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined };
  return (
    <div className="admin-field">
      <label htmlFor={id}>{label}</label>
      {input === 'textarea' ? (
        <textarea {...shared} rows={4} onChange={(event) => onChange(name, event.currentTarget.value)} />
      ) : (
        <input
          {...shared}
          type={type}
          inputMode={type === 'url' ? 'url' : undefined}
          onChange={(event) => onChange(name, event.currentTarget.value)}
        />
      )}
      {error ? (
        <p id={errorId} className="admin-field__error" data-testid={`error-${name}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The star rating, which only an edit sets (a new testimonial takes the default). */
function RatingField({ id, value, onChange }: { id: string; value: number; onChange: (stars: number) => void }) {
  return (
    <div className="admin-field">
      <label htmlFor={id}>{copy.ratingLabel}</label>
      <select id={id} name="rating" value={value} onChange={(event) => onChange(Number(event.currentTarget.value))}>
        {RATINGS.map((stars) => (
          <option key={stars} value={stars}>
            {copy.ratingOption(stars)}
          </option>
        ))}
      </select>
    </div>
  );
}

interface TestimonialFormProps {
  mode: 'create' | 'edit';
  initial: TestimonialValues;
  pending: boolean;
  /** Resolves true when saved: a create form then starts over empty. */
  onSubmit: (values: TestimonialValues) => Promise<boolean>;
  onCancel?: () => void;
}

/** The 'Add New Testimonial' form of spec section 2; in edit mode it also sets the rating. */
export function TestimonialForm({ mode, initial, pending, onSubmit, onCancel }: TestimonialFormProps) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<TestimonialErrors>({});
  const set = <K extends keyof TestimonialValues>(key: K, value: TestimonialValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (key in errors) setErrors((current) => ({ ...current, [key]: undefined }));
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const found = validateTestimonial(values);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((field) => found[field]);
    if (firstInvalid) {
      form.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    if ((await onSubmit(values)) && mode === 'create') setValues(initial);
  }

  const field = (name: FieldName, label: string, input: 'input' | 'textarea', type = 'text') => (
    <TextField
      id={`${id}-${name}`}
      name={name}
      label={label}
      input={input}
      type={type}
      value={values[name]}
      error={errors[name]}
      onChange={set}
    />
  );

  return (
    <form
      ref={form}
      noValidate
      onSubmit={handleSubmit}
      className="admin-form"
      data-testid={mode === 'create' ? 'testimonial-create-form' : 'testimonial-edit-form'}
    >
      {field('name', copy.nameLabel, 'input')}
      {field('title', copy.titleLabel, 'input')}
      {field('content', copy.contentLabel, 'textarea')}
      {field('videoUrl', copy.videoUrlLabel, 'input', 'url')}
      {field('imageUrl', copy.imageUrlLabel, 'input', 'url')}
      {mode === 'edit' ? <RatingField id={`${id}-rating`} value={values.rating} onChange={(stars) => set('rating', stars)} /> : null}
      <label className="admin-check">
        <input
          type="checkbox"
          name="featured"
          checked={values.featured}
          onChange={(event) => set('featured', event.currentTarget.checked)}
        />
        {copy.featuredLabel}
      </label>
      <div className="admin-form__actions">
        <button type="submit" className="button button--cta" disabled={pending}>
          {mode === 'create' ? (pending ? copy.submitting : copy.submit) : pending ? copy.saving : copy.save}
        </button>
        {onCancel ? (
          <button type="button" className="admin-button" onClick={onCancel}>
            {copy.cancel}
          </button>
        ) : null}
      </div>
    </form>
  );
}
