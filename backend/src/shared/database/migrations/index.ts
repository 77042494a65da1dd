import { CreateLeadsAndOutbox1763784000000 } from './1763784000000-create-leads-and-outbox';
import { CreateTestimonials1763787600000 } from './1763787600000-create-testimonials';

/** In order of their timestamps; listed explicitly like the entities. */
export const MIGRATIONS = [CreateLeadsAndOutbox1763784000000, CreateTestimonials1763787600000];
