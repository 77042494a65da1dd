import { BadRequestException } from '@nestjs/common';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { quotedField } from '../../common/input-hazard';
import { isSafeText } from '../../common/safe-text.validator';
import type { BeaconRequest, FunnelEventType } from '@contracts/admin';
import type { NewFunnelEvent } from '@core/database/repositories/funnel-event.repository';
import { isAdminPath } from '@contracts/routes';
import { findPlan, PLANS, type PlanId } from '@contracts/plans';

/** A page view is a few dozen bytes; anything much larger is not the SPA talking. */
export const BEACON_MAX_BYTES = 1024;

const TYPES: readonly FunnelEventType[] = ['page_view', 'checkout_start'];
const FIELDS = new Set(['type', 'visitorId', 'path', 'plan', 'referral']);
const VISITOR_ID = /^[A-Za-z0-9-]{16,64}$/;
const MAX_REFERRAL = 200;
const PLAN_BY_NAME = new Map<string, PlanId>(PLANS.map((plan) => [plan.name.toLowerCase(), plan.id]));

/** The body parseBeacon accepts, as OpenAPI states it. */
export const BEACON_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'visitorId', 'path'],
  properties: {
    type: { type: 'string', enum: [...TYPES] },
    visitorId: {
      type: 'string',
      pattern: VISITOR_ID.source,
      description: 'A random id the browser keeps in localStorage; it names a device, not a person',
    },
    path: {
      type: 'string',
      maxLength: 200,
      example: '/checkout',
      description: 'A public page path; a query string or fragment is cut off',
    },
    plan: { type: 'string', nullable: true, description: 'checkout_start only: the plan id or its catalogue name', example: 'standard' },
    referral: {
      type: 'string',
      nullable: true,
      maxLength: MAX_REFERRAL,
      description: "An affiliate's tracking id (never an e-mail address)",
    },
  },
};

function refuse(message: string): never {
  throw new BadRequestException(message);
}

/**
 * navigator.sendBeacon posts a string as text/plain, so the body arrives either parsed (JSON) or
 * as the raw string; both end here. Admin pages are refused: the funnel counts public pages only
 * (the controller refuses paths that are no page of the build).
 */
export function parseBeacon(body: unknown): NewFunnelEvent {
  let value = body;
  if (typeof body === 'string') {
    if (Buffer.byteLength(body) > BEACON_MAX_BYTES) refuse('The beacon is too large.');
    try {
      value = JSON.parse(body);
    } catch {
      refuse('The beacon must be a JSON object.');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse('The beacon must be a JSON object.');
  const input = value as Partial<Record<keyof BeaconRequest, unknown>>;
  const unknownField = Object.keys(input).find((key) => !FIELDS.has(key));
  if (unknownField) refuse(`Unknown field ${quotedField(unknownField)} is not allowed`);
  if (!TYPES.includes(input.type as FunnelEventType)) refuse('type must be page_view or checkout_start');
  if (typeof input.visitorId !== 'string' || !VISITOR_ID.test(input.visitorId))
    refuse('visitorId must be 16 to 64 letters, digits or dashes');
  return {
    type: input.type as FunnelEventType,
    visitorId: input.visitorId,
    path: pagePath(input.path),
    planId: input.type === 'checkout_start' ? planIdOf(input.plan) : null,
    referral: referralOf(input.referral),
  };
}

/** Only the path is kept: a query string or fragment is cut off before anything is stored. */
function pagePath(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.length > 200) refuse('path must be a page path such as /checkout');
  const path = raw
    .split(/[?#]/, 1)[0]
    .toLowerCase()
    .replace(/(.)\/+$/, '$1');
  if (isAdminPath(path)) refuse('path is not a public page of the funnel');
  return path;
}

function planIdOf(raw: unknown): PlanId | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') refuse('plan must be a plan id or name');
  const plan = findPlan(raw)?.id ?? PLAN_BY_NAME.get(raw.trim().toLowerCase());
  if (!plan) refuse('plan is not a plan of the catalogue');
  return plan;
}

function referralOf(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > MAX_REFERRAL || !isSafeText(raw))
    refuse(`referral must be text of at most ${MAX_REFERRAL} characters`);
  const referral = raw.trim();
  // A referral id is an affiliate's tracking id; an e-mail address there would be personal data.
  if (referral.includes('@')) refuse('referral must be a tracking id');
  return referral || null;
}
