import { TESTIMONIAL_RATING_MAX, TESTIMONIAL_RATING_MIN } from '@contracts/admin';
import { useId, useRef, useState, type FormEvent } from 'react';
import { testimonialManager } from '@/content/admin';
import { validateTestimonial, type TestimonialErrors, type TestimonialValues } from '../testimonial-values';

const copy = testimonialManager.form;
const RATINGS = Array.from({ length: TESTIMONIAL_RATING_MAX - TESTIMONIAL_RATING_MIN + 1 }, (_, i) => TESTIMONIAL_RATING_MAX - i);
const FIELD_ORDER = ['name', 'title', 'content', 'videoUrl', 'imageUrl'] as const;

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

  const field = (name: (typeof FIELD_ORDER)[number], label: string, input: 'input' | 'textarea', type = 'text') => {
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    const shared = {
      id: inputId,
      name,
      value: values[name],
      'aria-invalid': errors[name] ? true : undefined,
      'aria-describedby': errors[name] ? errorId : undefined,
    };
    return (
      <div className="admin-field">
        <label htmlFor={inputId}>{label}</label>
        {input === 'textarea' ? (
          <textarea {...shared} rows={4} onChange={(event) => set(name, event.currentTarget.value)} />
        ) : (
          <input
            {...shared}
            type={type}
            inputMode={type === 'url' ? 'url' : undefined}
            onChange={(event) => set(name, event.currentTarget.value)}
          />
        )}
        {errors[name] ? (
          <p id={errorId} className="admin-field__error" data-testid={`error-${name}`}>
            {errors[name]}
          </p>
        ) : null}
      </div>
    );
  };

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
      {mode === 'edit' ? (
        <div className="admin-field">
          <label htmlFor={`${id}-rating`}>{copy.ratingLabel}</label>
          <select
            id={`${id}-rating`}
            name="rating"
            value={values.rating}
            onChange={(event) => set('rating', Number(event.currentTarget.value))}
          >
            {RATINGS.map((stars) => (
              <option key={stars} value={stars}>
                {copy.ratingOption(stars)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
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
