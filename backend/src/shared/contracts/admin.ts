/** Admin sign-in and testimonial-manager shapes, shared by the API, the CLI and the SPA. */
import type { Testimonial } from './api-types';

/** Header that carries the CSRF token (from the session answer) on every mutating admin call. */
export const ADMIN_CSRF_HEADER = 'x-csrf-token';

/** Shortest password `npm run admin:create` accepts. */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;

/** The one answer to a failed sign-in, whether the address has an account or not. */
export const ADMIN_LOGIN_FAILED_MESSAGE = 'Invalid email or password';

export const TESTIMONIAL_RATING_MIN = 1;
export const TESTIMONIAL_RATING_MAX = 5;
/** The spec's create form has no rating input and always sends this. */
export const TESTIMONIAL_DEFAULT_RATING = 5;

export interface AdminLoginRequest {
  email: string;
  password: string;
}

/** GET /api/admin/session and POST /api/admin/login. */
export interface AdminSessionResponse {
  email: string;
  /** Send it in ADMIN_CSRF_HEADER on POST, PATCH and DELETE; valid for this session only. */
  csrfToken: string;
  /** ISO time at which the session ends (absolute lifetime). */
  expiresAt: string;
}

/** GET /api/testimonials (admin): the spec's shape plus the position among featured ones. */
export interface AdminTestimonial extends Testimonial {
  displayOrder: number;
}

/** POST /api/testimonials: the spec's body. Empty URL strings mean no URL. */
export interface CreateTestimonialRequest {
  name: string;
  title: string;
  content: string;
  videoUrl?: string | null;
  imageUrl?: string | null;
  rating?: number;
  featured?: boolean;
}

/**
 * PATCH /api/testimonials/{id}: any subset. `displayOrder` is the 0-based position among the
 * featured testimonials; the others move to make room.
 */
export interface UpdateTestimonialRequest extends Partial<CreateTestimonialRequest> {
  displayOrder?: number;
}

/** What the audit log records; the dashboard shows these. */
export type AdminAuditAction =
  | 'sign-in'
  | 'sign-in.failed'
  | 'sign-out'
  | 'account.create'
  | 'account.password'
  | 'testimonial.create'
  | 'testimonial.update'
  | 'testimonial.delete'
  /** Queue dashboard (/admin/queues): target `queue:<name>`, `queue:<name>/<state>`, `job:<queue>/<job id>` or `queues:all`. */
  | 'queue.retry'
  | 'queue.clean'
  | 'queue.promote'
  | 'queue.pause'
  | 'queue.resume';
