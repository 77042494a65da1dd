import type { CreateLeadRequest } from '@contracts/api-types';
import { OFFERS } from '@contracts/plans';
import { readAttribution } from '@/lib/attribution';
import { resolveReferral } from '@/lib/referral';

export interface LeadFormValues {
  email: string;
  name: string;
  phone: string;
}

/** Same bound the lead API applies (RFC 5321 path length). */
const MAX_EMAIL_LENGTH = 254;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email);
}

/** Empty optional fields are left out rather than sent as "", and referral/attribution only when known. */
export function buildLeadRequest({ email, name, phone }: LeadFormValues): CreateLeadRequest {
  const referral = resolveReferral();
  const attribution = readAttribution();
  return {
    email,
    ...(name ? { name } : {}),
    ...(phone ? { phone } : {}),
    ...(referral ? { referral } : {}),
    ...(attribution ? { attribution } : {}),
  };
}

export function checkoutPath({ email, name }: LeadFormValues): string {
  const params = new URLSearchParams({ plan: OFFERS.default.id, email });
  if (name) params.set('name', name);
  return `/checkout?${params.toString()}`;
}
