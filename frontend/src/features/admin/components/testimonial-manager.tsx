import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { PageHeading } from '@/components/page-heading';
import { notify } from '@/components/toast/notify';
import { testimonialManager } from '@/content/admin';
import { pages } from '@/content/pages';
import { forgetSessionOn401 } from '@/lib/admin-session';
import { notifyAdminFailure } from '../admin-toasts';
import { useCreateTestimonial } from '../api/create-testimonial';
import { useTestimonials } from '../api/get-testimonials';
import { emptyTestimonial, requestOf, type TestimonialValues } from '../testimonial-values';
import { TestimonialForm } from './testimonial-form';
import { TestimonialItem } from './testimonial-item';

const { form: formCopy, list: copy, toasts } = testimonialManager;

/** /admin/testimonials: 'Manage Testimonials' (spec section 2). */
export function TestimonialManager() {
  const queryClient = useQueryClient();
  const testimonials = useTestimonials();
  const create = useCreateTestimonial();

  useEffect(() => {
    if (testimonials.error) forgetSessionOn401(queryClient, testimonials.error);
  }, [testimonials.error, queryClient]);

  async function add(values: TestimonialValues): Promise<boolean> {
    try {
      await create.mutateAsync(requestOf(values));
      notify({ tone: 'success', title: toasts.created });
      return true;
    } catch (error) {
      notifyAdminFailure(queryClient, error, toasts.createFailed);
      return false;
    }
  }

  const items = testimonials.data ?? [];
  const featuredCount = items.filter((t) => t.featured).length;

  return (
    <div className="admin__page">
      <PageHeading>{pages.adminTestimonials.heading}</PageHeading>
      <div className="admin-manager">
        <section className="admin-card" aria-labelledby="add-testimonial-heading">
          <h2 id="add-testimonial-heading">{formCopy.heading}</h2>
          <TestimonialForm mode="create" initial={emptyTestimonial} pending={create.isPending} onSubmit={add} />
        </section>
        <section aria-labelledby="existing-testimonials-heading" data-testid="existing-testimonials">
          <h2 id="existing-testimonials-heading">{copy.heading}</h2>
          {testimonials.isPending ? (
            <p role="status">{copy.loading}</p>
          ) : testimonials.isError ? (
            <div role="alert">
              <p>{copy.loadFailed}</p>
              <button type="button" className="admin-button" onClick={() => void testimonials.refetch()}>
                {copy.retry}
              </button>
            </div>
          ) : items.length === 0 ? (
            <p className="admin-manager__empty" data-testid="testimonials-empty">
              {copy.empty}
            </p>
          ) : (
            <ul className="admin-manager__list">
              {items.map((t, index) => (
                <TestimonialItem key={t.id} testimonial={t} featuredPlace={t.featured ? { index, count: featuredCount } : null} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
