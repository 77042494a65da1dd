import type { AdminTestimonial } from '@contracts/admin';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notify } from '@/components/toast/notify';
import { testimonialManager } from '@/content/admin';
import { notifyAdminFailure } from '../admin-toasts';
import { useDeleteTestimonial } from '../api/delete-testimonial';
import { useUpdateTestimonial } from '../api/update-testimonial';
import { requestOf, valuesOf, type TestimonialValues } from '../testimonial-values';
import { TestimonialForm } from './testimonial-form';

const { list: copy, toasts } = testimonialManager;

interface TestimonialItemProps {
  testimonial: AdminTestimonial;
  /** Position among the featured ones and their count, for the order buttons; null when not featured. */
  featuredPlace: { index: number; count: number } | null;
}

/** The testimonial as the site shows it: name, markers (featured, video), title, text and rating. */
function TestimonialSummary({ testimonial: t }: { testimonial: AdminTestimonial }) {
  return (
    <>
      <div className="admin-item__head">
        <h3 className="admin-item__name">{t.name}</h3>
        {t.featured ? (
          <span
            className="admin-item__marker admin-item__marker--featured"
            role="img"
            aria-label={copy.featuredMarker}
            title={copy.featuredMarker}
            data-testid="marker-featured"
          >
            ★
          </span>
        ) : null}
        {t.videoUrl ? (
          <span className="admin-item__marker" role="img" aria-label={copy.videoMarker} title={copy.videoMarker} data-testid="marker-video">
            ▶
          </span>
        ) : null}
      </div>
      <p className="admin-item__title">{t.title}</p>
      <p className="admin-item__content" data-testid="admin-testimonial-content">
        {t.content}
      </p>
      <p className="admin-item__rating">{copy.ratingText(t.rating)}</p>
    </>
  );
}

/** Up and down among the featured testimonials (the first cannot go up, nor the last down). */
function MoveButtons({
  place,
  disabled,
  onMove,
}: {
  place: NonNullable<TestimonialItemProps['featuredPlace']>;
  disabled: boolean;
  onMove: (displayOrder: number) => void;
}) {
  return (
    <>
      <button type="button" className="admin-button" disabled={disabled || place.index === 0} onClick={() => onMove(place.index - 1)}>
        {copy.moveUp}
      </button>
      <button
        type="button"
        className="admin-button"
        disabled={disabled || place.index === place.count - 1}
        onClick={() => onMove(place.index + 1)}
      >
        {copy.moveDown}
      </button>
    </>
  );
}

export function TestimonialItem({ testimonial: t, featuredPlace }: TestimonialItemProps) {
  const queryClient = useQueryClient();
  const update = useUpdateTestimonial();
  const remove = useDeleteTestimonial();
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');

  async function change(changes: Parameters<typeof update.mutateAsync>[0]['changes'], success?: string): Promise<boolean> {
    try {
      await update.mutateAsync({ id: t.id, changes });
      if (success) notify({ tone: 'success', title: success });
      return true;
    } catch (error) {
      notifyAdminFailure(queryClient, error, toasts.updateFailed);
      return false;
    }
  }

  async function saveEdit(values: TestimonialValues): Promise<boolean> {
    const saved = await change(requestOf(values), toasts.updated);
    if (saved) setMode('view');
    return saved;
  }

  function confirmDelete() {
    remove.mutate(t.id, {
      onSuccess: () => notify({ tone: 'success', title: toasts.deleted }),
      onError: (error) => {
        setMode('view');
        notifyAdminFailure(queryClient, error, toasts.deleteFailed, toasts.deleteFailedFallback);
      },
    });
  }

  if (mode === 'edit') {
    return (
      <li className="admin-card admin-item" data-testid="admin-testimonial">
        <TestimonialForm
          mode="edit"
          initial={valuesOf(t)}
          pending={update.isPending}
          onSubmit={saveEdit}
          onCancel={() => setMode('view')}
        />
      </li>
    );
  }

  return (
    <li className="admin-card admin-item" data-testid="admin-testimonial">
      <TestimonialSummary testimonial={t} />
      {mode === 'confirm-delete' ? (
        <div className="admin-item__confirm" role="group" aria-label={copy.delete}>
          <p>{copy.confirmDelete(t.name)}</p>
          <button type="button" className="admin-button admin-button--danger" disabled={remove.isPending} onClick={confirmDelete}>
            {remove.isPending ? copy.deleting : copy.confirmDeleteButton}
          </button>
          <button type="button" className="admin-button" disabled={remove.isPending} onClick={() => setMode('view')}>
            {testimonialManager.form.cancel}
          </button>
        </div>
      ) : (
        <div className="admin-item__actions">
          <button type="button" className="admin-button" onClick={() => setMode('edit')}>
            {copy.edit}
          </button>
          <button type="button" className="admin-button" disabled={update.isPending} onClick={() => void change({ featured: !t.featured })}>
            {t.featured ? copy.unfeature : copy.feature}
          </button>
          {featuredPlace ? (
            <MoveButtons place={featuredPlace} disabled={update.isPending} onMove={(displayOrder) => void change({ displayOrder })} />
          ) : null}
          <button type="button" className="admin-button admin-button--danger" onClick={() => setMode('confirm-delete')}>
            {copy.delete}
          </button>
        </div>
      )}
    </li>
  );
}
