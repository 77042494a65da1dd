import { Lead } from './lead.entity';
import { LeadSubmission } from './lead-submission.entity';
import { OutboxEntry } from './outbox-entry.entity';
import { SideEffect } from './side-effect.entity';
import { Testimonial } from './testimonial.entity';

export { Lead, LeadSubmission, OutboxEntry, SideEffect, Testimonial };

/** Listed explicitly (no globs) so a build never silently misses an entity. */
export const ENTITIES = [Lead, LeadSubmission, OutboxEntry, SideEffect, Testimonial];
