import { BadRequestException } from '@nestjs/common';
import { BEACON_SCHEMA, parseBeacon } from './beacon-request';

const VISITOR = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('parseBeacon', () => {
  it('takes a sendBeacon string or a parsed object alike, keeps only the path and maps a plan name to its id', () => {
    const body = {
      type: 'checkout_start',
      visitorId: VISITOR,
      path: '/Checkout/?email=jane%40example.com#pay',
      plan: 'Full Payment',
      referral: ' partner7 ',
    };
    const expected = { type: 'checkout_start', visitorId: VISITOR, path: '/checkout', planId: 'full-payment', referral: 'partner7' };
    expect(parseBeacon(body)).toEqual(expected);
    expect(parseBeacon(JSON.stringify(body))).toEqual(expected);
  });

  it('drops a plan on a page view and an empty referral', () => {
    expect(parseBeacon({ type: 'page_view', visitorId: VISITOR, path: '/', plan: 'standard', referral: '' })).toEqual({
      type: 'page_view',
      visitorId: VISITOR,
      path: '/',
      planId: null,
      referral: null,
    });
  });

  it('names an unknown field only when its name is readable', () => {
    expect(() => parseBeacon({ type: 'page_view', visitorId: VISITOR, path: '/', color: 'red' })).toThrow(
      'Unknown field "color" is not allowed',
    );
    expect(() => parseBeacon({ type: 'page_view', visitorId: VISITOR, path: '/', 'a\u0000\u202e': 1 })).toThrow(
      'Unknown field with an unusual name is not allowed',
    );
  });

  it.each([
    ['not JSON', '{'],
    ['null', null],
    ['an admin page', { type: 'page_view', visitorId: VISITOR, path: '/admin/testimonials' }],
    ['a relative path', { type: 'page_view', visitorId: VISITOR, path: 'checkout' }],
    ['a referral with control characters', { type: 'page_view', visitorId: VISITOR, path: '/', referral: 'a\u0000b' }],
    ['a visitor id with other characters', { type: 'page_view', visitorId: 'jane@example.com-xxxxxxx', path: '/' }],
  ])('refuses %s with a 400', (_what, body) => {
    expect(() => parseBeacon(body)).toThrow(BadRequestException);
  });
});

describe('BEACON_SCHEMA (the OpenAPI body of POST /api/beacon)', () => {
  it('names exactly the fields parseBeacon takes, and its required ones', () => {
    const fields = Object.keys(BEACON_SCHEMA.properties ?? {});
    expect(fields.sort()).toEqual(['path', 'plan', 'referral', 'type', 'visitorId']);
    const minimal = { type: 'page_view', visitorId: 'a'.repeat(16), path: '/checkout' };
    expect(Object.keys(minimal).sort()).toEqual([...(BEACON_SCHEMA.required ?? [])].sort());
    expect(() => parseBeacon(minimal)).not.toThrow();
    for (const field of BEACON_SCHEMA.required ?? []) {
      expect(() => parseBeacon({ ...minimal, [field]: undefined })).toThrow();
    }
    expect(() => parseBeacon({ ...minimal, other: 1 })).toThrow(/Unknown field/);
  });
});
