/** Request and response shapes of the public HTTP API (spec section 7), shared with the SPA. */

/** Marketing attribution captured in the browser at opt-in, stored with the lead. */
export interface LeadAttribution {
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  utm_term?: string;
  utm_content?: string;
  gclid?: string;
  fbclid?: string;
  landing_path?: string;
}

export interface CreateLeadRequest {
  email: string;
  name?: string;
  phone?: string;
  referral?: string;
  attribution?: LeadAttribution;
}

/**
 * One answer whether or not the e-mail was already on file, so the endpoint cannot be used to
 * find out who is a lead: the submission was durably stored.
 */
export interface CreateLeadResponse {
  received: true;
}

/** Every 4xx/5xx body the API sends: `message` is written for a person to read. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  requestId?: string;
}

export interface FeaturedTestimonial {
  id: string;
  videoUrl: string | null;
  imageUrl: string | null;
  name: string;
  title: string;
  content: string;
  rating: number;
}

export interface Testimonial extends FeaturedTestimonial {
  featured: boolean;
}

/**
 * Readiness. 'ok': everything reachable. 'degraded': Redis is away, leads are still accepted
 * (the outbox keeps them) and answered 200. 'unavailable': Postgres is away, answered 503.
 */
export interface HealthResponse {
  status: 'ok' | 'degraded' | 'unavailable';
  postgres: 'up' | 'down';
  redis: 'up' | 'down';
  queues: Record<string, { waiting: number; active: number; delayed: number; failed: number }>;
  /** Outbox rows not yet done (waiting for the relay or in BullMQ); -1 while Postgres is down. */
  outboxPending: number;
  /** Undispatched rows whose job no running worker's relay knows (a newer API's): they wait for one. */
  outboxUnhandled: number;
}
