import { TESTIMONIAL_DEFAULT_RATING, type AdminTestimonial, type CreateTestimonialRequest } from '@contracts/admin';
import { testimonialManager } from '@/content/admin';
import { toSafeHttpUrl } from '@/lib/safe-url';

const { validation } = testimonialManager;

export interface TestimonialValues {
  name: string;
  title: string;
  content: string;
  videoUrl: string;
  imageUrl: string;
  featured: boolean;
  rating: number;
}

export type TestimonialErrors = Partial<Record<'name' | 'title' | 'content' | 'videoUrl' | 'imageUrl', string>>;

export const emptyTestimonial: TestimonialValues = {
  name: '',
  title: '',
  content: '',
  videoUrl: '',
  imageUrl: '',
  featured: false,
  rating: TESTIMONIAL_DEFAULT_RATING,
};

export function valuesOf(testimonial: AdminTestimonial): TestimonialValues {
  return {
    name: testimonial.name,
    title: testimonial.title,
    content: testimonial.content,
    videoUrl: testimonial.videoUrl ?? '',
    imageUrl: testimonial.imageUrl ?? '',
    featured: testimonial.featured,
    rating: testimonial.rating,
  };
}

const isHttpUrl = (value: string) => !/\s/.test(value) && toSafeHttpUrl(value) !== null;

/** Spec section 5, as the server checks it: name, title and content required; URLs absolute http(s). */
export function validateTestimonial(values: TestimonialValues): TestimonialErrors {
  const errors: TestimonialErrors = {};
  if (!values.name.trim()) errors.name = validation.nameRequired;
  if (!values.title.trim()) errors.title = validation.titleRequired;
  if (!values.content.trim()) errors.content = validation.contentRequired;
  if (values.videoUrl.trim() && !isHttpUrl(values.videoUrl.trim())) errors.videoUrl = validation.urlInvalid;
  if (values.imageUrl.trim() && !isHttpUrl(values.imageUrl.trim())) errors.imageUrl = validation.urlInvalid;
  return errors;
}

/** The spec's request body; an empty URL field is sent as null. */
export function requestOf(values: TestimonialValues): Required<CreateTestimonialRequest> {
  return {
    name: values.name.trim(),
    title: values.title.trim(),
    content: values.content.trim(),
    videoUrl: values.videoUrl.trim() || null,
    imageUrl: values.imageUrl.trim() || null,
    rating: values.rating,
    featured: values.featured,
  };
}
