import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { METHODS } from 'node:http';
import { OFFERS, planOf } from '@contracts/plans';
import type { RawRequest } from './http';

/** Plans from the site folder, so the well-formed bodies stay well formed after a seller's price change or rename. */
const STANDARD = OFFERS.default;
const FULL_PAYMENT = planOf('full-payment');

/** What the generators need from the running stack: real ids, so the fuzz reaches past "not found". */
export interface FuzzContext {
  clientSecret: string;
  paymentIntentId: string;
  setupIntentId: string;
  accessToken: string;
  webhookSecret: string;
  admin: { cookie: string; csrfToken: string };
  testimonialId: string;
}

type Body = Record<string, unknown>;

interface JsonEndpoint {
  path: string;
  method: 'POST' | 'PATCH';
  /** A body the endpoint accepts; each generated request breaks it in one way. */
  valid: (ctx: FuzzContext, n: number) => Body;
  admin?: boolean;
}

const email = (n: number) => `fuzz.${n}.${Math.random().toString(36).slice(2, 8)}@example.com`;
const party = (n: number) => ({ email: email(n), name: 'Fuzz Buyer', source: 'clear' });

export const JSON_ENDPOINTS: readonly JsonEndpoint[] = [
  {
    path: '/api/leads',
    method: 'POST',
    valid: (_c, n) => ({
      email: email(n),
      name: 'Fuzz Lead',
      phone: '+1 555 0100',
      referral: 'aff1',
      attribution: { utm_source: 'x', landing_path: '/' },
    }),
  },
  {
    path: '/api/invitation-gate',
    method: 'POST',
    valid: (_c, n) => ({ name: 'Fuzz Invitee', email: email(n), phone: '555', invitedBy: 'A friend', referral: 'aff1' }),
  },
  { path: '/api/create-setup-intent', method: 'POST', valid: (_c, n) => ({ ...party(n), planId: STANDARD.id }) },
  {
    path: '/api/create-payment-intent',
    method: 'POST',
    valid: (_c, n) => ({ ...party(n), amount: FULL_PAYMENT.amount, plan: FULL_PAYMENT.name }),
  },
  // Without a browser that has just paid, a well-formed one-click purchase is a readable 409.
  { path: '/api/one-click', method: 'POST', valid: (_c, n) => ({ ...party(n), planId: '2-month' }) },
  {
    path: '/api/confirm-subscription',
    method: 'POST',
    valid: (c, n) => ({ ...party(n), setupIntentId: c.setupIntentId, amount: STANDARD.amount, plan: STANDARD.name }),
  },
  {
    path: '/api/beacon',
    method: 'POST',
    valid: () => ({ type: 'checkout_start', visitorId: 'fuzz-visitor-000000001', path: '/checkout', plan: STANDARD.id, referral: 'aff1' }),
  },
  { path: '/api/admin/login', method: 'POST', valid: (_c, n) => ({ email: email(n), password: 'not the password' }) },
  {
    path: '/api/sandbox/confirm-payment',
    method: 'POST',
    valid: (c) => ({
      clientSecret: c.clientSecret,
      card: { number: '4000 0000 0000 0002', expMonth: 12, expYear: 2034, cvc: '123' },
      returnUrl: 'http://127.0.0.1/success',
    }),
  },
  {
    path: '/api/sandbox/confirm-setup',
    method: 'POST',
    valid: () => ({
      clientSecret: 'seti_fuzz_secret_x',
      card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' },
      returnUrl: 'http://127.0.0.1/success',
    }),
  },
  {
    path: '/api/testimonials',
    method: 'POST',
    admin: true,
    valid: () => ({
      name: 'Fuzz',
      title: 'Tester',
      content: 'Line one\nline two',
      rating: 5,
      featured: false,
      videoUrl: '',
      imageUrl: 'https://example.com/a.png',
    }),
  },
  { path: '/api/testimonials/:id', method: 'PATCH', admin: true, valid: () => ({ title: 'Tester', rating: 4 }) },
  { path: '/api/admin/people/erase', method: 'POST', admin: true, valid: (_c, n) => ({ email: email(n) }) },
  { path: '/api/account/link', method: 'POST', valid: (_c, n) => ({ email: email(n) }) },
  { path: '/api/account/session', method: 'POST', valid: () => ({ token: 'x'.repeat(43) }) },
];

/** Characters that break naive code: controls, separators, bidi overrides, BOM, unpaired surrogates. */
const NASTY_UNITS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u200b',
  '\ufeff',
  '\ufffd',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  '\u0301',
  '\u4e2d',
  '"',
  '\\',
  '<',
  '%',
  "'",
  ' ',
];

const nastyString = fc.string({
  unit: fc.oneof(fc.constantFrom(...NASTY_UNITS), fc.constantFrom('a', 'b', '@', '.', '1')),
  minLength: 1,
  maxLength: 40,
});

const injectionString = fc.constantFrom(
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '=HYPERLINK("http://evil.example")',
  'null',
  'undefined',
  'NaN',
  '[object Object]',
  'a@b',
  '@example.com',
  'jane@example.com\r\nBcc: x@evil.example',
  'jane@exa mple.com',
  '"quoted"@example.com',
);

const hugeString = fc.integer({ min: 256, max: 15_000 }).map((n) => 'x'.repeat(n));

const weirdString = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 2, arbitrary: injectionString },
  { weight: 2, arbitrary: hugeString },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constant('') },
);

/** JSON text spliced in as is: nesting deeper than this process (or the server) could stringify. */
class RawJson {
  constructor(
    readonly text: string,
    readonly description: string,
  ) {}
}

/** JSON.stringify, except that RawJson values go in verbatim and own __proto__ keys are kept. */
function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** An array or object nested up to 8,000 levels (under the 16 KB body limit at every depth generated). */
const deepNesting = fc
  .record({ depth: fc.integer({ min: 50, max: 8000 }), kind: fc.constantFrom('array', 'object') })
  .map(({ depth, kind }) =>
    kind === 'array'
      ? new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`, `arrays ${depth} deep`)
      : new RawJson(
          `${'{"a":'.repeat(Math.min(depth, 3000))}1${'}'.repeat(Math.min(depth, 3000))}`,
          `objects ${Math.min(depth, 3000)} deep`,
        ),
  );

const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: weirdString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1e308, -0, 2 ** 53 + 1, 0.5, 13) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(weirdString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  { weight: 1, arbitrary: deepNesting },
);

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const extraKey = fc.oneof(
  fc.constantFrom(...PROTO_KEYS, 'id', 'isAdmin', 'status', 'createdAt', 'amount', 'role'),
  fc.string({ maxLength: 12 }),
  nastyString,
);

/** JSON text of an object whose own keys may be __proto__ or constructor. */
function objectText(entries: Array<[string, unknown]>): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
}

const json = { 'content-type': 'application/json' };

/** Sets `value` at a dotted path of a copy of `body` ("card.number"). */
function withField(body: Body, path: string, value: unknown): Body {
  const copy: Body = JSON.parse(JSON.stringify(body)) as Body;
  const keys = path.split('.');
  let target = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys[keys.length - 1]] = value;
  return copy;
}

function fieldPaths(body: Body, prefix = ''): string[] {
  return Object.entries(body).flatMap(([key, value]) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? [`${prefix}${key}`, ...fieldPaths(value as Body, `${prefix}${key}.`)]
      : [`${prefix}${key}`],
  );
}

const INVALID_JSON = [
  '{',
  '{"email":',
  '{"email":"a@b.c",}',
  "{'email':'a@b.c'}",
  '{"email":"a@b.c"}{"email":"d@e.f"}',
  '{"email":NaN}',
  '{"email":undefined}',
  '\ufeff{"email":"a@b.c"}',
  '{"email":"\\u00"}',
  '{"email":"\\x41"}',
  '[1,2',
  'null null',
  '<xml/>',
  'email=a@b.c',
  ' ',
];

const CONTENT_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/merge-patch+json',
  'APPLICATION/JSON',
  'image/png',
  ';;;',
  '',
];

/** Every way a JSON endpoint's body gets broken: one field, missing fields, extra keys, the body's shape, its bytes, its type. */
function jsonEndpointRequests(ep: JsonEndpoint, ctx: FuzzContext): fc.Arbitrary<RawRequest> {
  const path = ep.path.replace(':id', ctx.testimonialId);
  const auth: Record<string, string> = ep.admin ? { cookie: ctx.admin.cookie, 'x-csrf-token': ctx.admin.csrfToken } : {};
  const at = (label: string, body: string | Buffer, headers: Record<string, string> = json): RawRequest => ({
    label: `${ep.method} ${ep.path}: ${label}`,
    method: ep.method,
    path,
    headers: { ...headers, ...auth },
    body,
  });
  const valid = ep.valid(ctx, 0);
  const paths = fieldPaths(valid);
  const n = fc.nat();
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(n, fc.constantFrom(...paths), weirdValue)
        .map(([i, field, value]) => at(`${field} = ${preview(value)}`, toJson(withField(ep.valid(ctx, i), field, value)))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(n, fc.subarray(Object.keys(valid), { minLength: 1 })).map(([i, dropped]) => {
        const body = ep.valid(ctx, i);
        for (const key of dropped) delete body[key];
        return at(`without ${dropped.join(', ')}`, JSON.stringify(body));
      }),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(n, extraKey, weirdValue, fc.boolean()).map(([i, key, value, nested]) => {
        const body = ep.valid(ctx, i);
        const nestedKey = Object.keys(body).find((k) => body[k] && typeof body[k] === 'object');
        if (nested && nestedKey) {
          const inner = objectText([...Object.entries(body[nestedKey] as Body), [key, value]]);
          const outer = objectText(Object.entries(body).filter(([k]) => k !== nestedKey));
          return at(
            `extra key ${JSON.stringify(key)} in ${nestedKey}`,
            `${outer.slice(0, -1)}${outer.length > 2 ? ',' : ''}${JSON.stringify(nestedKey)}:${inner}}`,
          );
        }
        return at(`extra key ${JSON.stringify(key)}`, objectText([[key, value], ...Object.entries(body)]));
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .jsonValue({ maxDepth: 2 })
        .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
        .map((v) => at(`body ${preview(v)}`, JSON.stringify(v))),
    },
    { weight: 1, arbitrary: fc.constantFrom(...INVALID_JSON).map((text) => at(`invalid JSON ${preview(text)}`, text)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => at(`random text ${preview(text)}`, text)) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((bytes) =>
          at(
            'JSON with invalid UTF-8',
            Buffer.concat([Buffer.from('{"email":"'), Buffer.from(bytes), Buffer.from([0xff, 0xc0, 0x80]), Buffer.from('@example.com"}')]),
          ),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('\\u0000', '\\ud800', '\\udfff', '\\u001b', '\\u2028')
        .map((esc) => at(`escape ${esc} in every field`, escapedEverywhere(valid, esc))),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(n, fc.constantFrom(...CONTENT_TYPES), fc.boolean()).map(([i, type, formBody]) => {
        const body = ep.valid(ctx, i);
        const text = formBody
          ? new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString()
          : JSON.stringify(body);
        return at(`content type ${JSON.stringify(type)}${formBody ? ' (form body)' : ''}`, text, type ? { 'content-type': type } : {});
      }),
    },
    { weight: 1, arbitrary: fc.constant(null).map(() => at('no body', '', json)) },
  );
}

function escapedEverywhere(body: Body, escape: string): string {
  return JSON.stringify(body).replace(/":"/g, `":"${escape}`);
}

const pathSegment = fc.oneof(
  { weight: 3, arbitrary: weirdString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x')).slice(0, 9000)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%',
      '%zz',
      '%ff',
      '%00',
      '%c0%af',
      '%e0%80',
      '..%2f..%2fetc%2fpasswd',
      '%2e%2e',
      '..',
      '.',
      '%20',
      'null',
      '-1',
      '0',
      'a'.repeat(300),
      '__proto__',
      'constructor',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('pi_', 'seti_', 'sub_')
      .chain((p) => fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => p + encodeURIComponent(s))),
  },
  { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
);

const queryValue = fc.oneof(
  pathSegment,
  fc.constantFrom('1', '0', '-5', '1e3', '9999999999999999999', 'NaN', 'Infinity', '2024-13-45', '2020-01-01', 'today', '1.5', '0x10'),
);

/** A query string with duplicated keys, bracket keys and prototype keys besides the endpoint's own. */
function queryFor(keys: string[]): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.oneof(
      fc.constantFrom(...keys),
      fc.constantFrom(...keys).map((k) => `${k}[]`),
      fc.constantFrom('__proto__[x]', 'constructor[prototype][x]', 'x'),
    ),
    queryValue,
  );
  return fc
    .array(pair, { minLength: 1, maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${v}`).join('&'));
}

function getRequests(ctx: FuzzContext): fc.Arbitrary<RawRequest> {
  const admin = { cookie: ctx.admin.cookie };
  const get = (label: string, path: string, headers: Record<string, string> = {}): RawRequest => ({ label, method: 'GET', path, headers });
  return fc.oneof(
    { weight: 3, arbitrary: pathSegment.map((t) => get('token check', `/api/validate-token/${t}`)) },
    { weight: 2, arbitrary: pathSegment.map((t) => get('payment verification', `/api/verify-payment/${t}`)) },
    { weight: 2, arbitrary: pathSegment.map((t) => get('subscription verification', `/api/verify-subscription/${t}`)) },
    {
      weight: 1,
      arbitrary: pathSegment.map((t) => ({
        label: 'testimonial delete',
        method: 'DELETE',
        path: `/api/testimonials/${t}`,
        headers: { ...admin, 'x-csrf-token': ctx.admin.csrfToken },
      })),
    },
    {
      weight: 1,
      arbitrary: queryFor(['client_secret', 'return_url']).map((q) => get('sandbox authentication page', `/api/sandbox/authenticate?${q}`)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom('client_secret', 'return_url', 'outcome'), weirdValue).map(([field, value]) => {
        const form = {
          client_secret: ctx.clientSecret,
          return_url: 'http://127.0.0.1/success',
          outcome: 'complete',
          [field]: typeof value === 'string' ? value : toJson(value),
        };
        return {
          label: `sandbox authentication form: ${field} = ${preview(value)}`,
          method: 'POST',
          path: '/api/sandbox/authenticate',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        };
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('leads', 'orders', 'audit', 'leads/export.csv', 'orders/export.csv', 'billing/orders'),
          queryFor(['page', 'pageSize', 'q']),
        )
        .map(([list, q]) => get(`admin ${list}`, `/api/admin/${list}?${q}`, admin)),
    },
    { weight: 1, arbitrary: queryFor(['from', 'to']).map((q) => get('admin funnel', `/api/admin/funnel?${q}`, admin)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('', '/export'), queryFor(['email']))
        .map(([sub, q]) => get('admin person', `/api/admin/people${sub}?${q}`, admin)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            '/api/testimonials/featured',
            '/api/health',
            '/api/health/live',
            '/api/payments/config',
            '/api/metrics',
            '/api/admin/session',
          ),
          queryFor(['x']),
        )
        .map(([p, q]) => get('query on a fixed route', `${p}?${q}`)),
    },
  );
}

const KNOWN_PATHS = [
  '/api/leads',
  '/api/invitation-gate',
  '/api/create-payment-intent',
  '/api/one-click',
  '/api/webhooks/stripe',
  '/api/beacon',
  '/api/admin/login',
  '/api/health',
  '/api/testimonials/featured',
  '/api/validate-token/abc',
  '/api/sandbox/confirm-payment',
];

/** Methods the routes do not take, mangled paths, and sloppy headers on a real route. */
function routingRequests(): fc.Arbitrary<RawRequest> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT')), fc.constantFrom(...KNOWN_PATHS), fc.boolean())
        .map(([method, path, withBody]) => ({
          label: `${method} ${path}`,
          method,
          path,
          ...(withBody && { headers: json, body: '{"email":"a@example.com"}' }),
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom('GET', 'POST', 'DELETE'),
          fc.constantFrom(
            '/api/',
            '/api//leads',
            '/API/LEADS',
            '/api/leads/',
            '/api/../api/leads',
            '/api/%2e%2e/leads',
            '/api/leads%00',
            '/api/leads;x=1',
            '/api/leads/../../etc/passwd',
            '/api/docs/../..',
          ),
          pathSegment,
        )
        .map(([method, prefix, seg]) => ({
          label: `${method} mangled path`,
          method,
          path: `${prefix}${seg}`,
          headers: json,
          body: method === 'POST' ? '{}' : undefined,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'cookie',
            'user-agent',
            'x-request-id',
            'x-forwarded-for',
            'accept',
            'accept-encoding',
            'origin',
            'referer',
            'stripe-signature',
          ),
          nastyString,
          fc.nat(),
        )
        .map(([header, value, i]) => ({
          label: `lead with header ${header}: ${preview(value)}`,
          method: 'POST',
          path: '/api/leads',
          headers: {
            ...json,
            [header]: headerSafe(header === 'cookie' ? `_fbp=${value}; _ga=GA1.1.${value}; _fprom_tid=%00${value}` : value),
          },
          body: JSON.stringify({ email: email(i) }),
        })),
    },
    { weight: 1, arbitrary: pathSegment.map((seg) => ({ label: 'unknown page', method: 'GET', path: `/${seg}` })) },
  );
}

/** Header values may not carry control characters or non-Latin-1 text at all (node refuses to send them). */
function headerSafe(value: string): string {
  return value.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '%');
}

/** Stripe's signature scheme: HMAC-SHA256 of "<t>.<body>" under the endpoint secret. */
function stripeSignature(body: string | Buffer, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signed = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return `t=${timestamp},v1=${signed}`;
}

const EVENT_TYPES = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'setup_intent.succeeded',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
  'charge.refunded',
];

/** Unsigned or wrongly signed bodies, and correctly signed events whose content is malformed. */
function webhookRequests(ctx: FuzzContext): fc.Arbitrary<RawRequest> {
  const post = (label: string, body: string | Buffer, signature?: string): RawRequest => ({
    label: `webhook: ${label}`,
    method: 'POST',
    path: '/api/webhooks/stripe',
    headers: { ...json, ...(signature !== undefined && { 'stripe-signature': signature }) },
    body,
  });
  const eventField = fc.oneof(weirdValue, fc.constant(undefined));
  const event = fc.record({
    id: fc.oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 }).map((s) => `evt_fuzz_${s}`),
      weirdValue,
    ),
    type: fc.oneof(fc.constantFrom(...EVENT_TYPES), weirdValue),
    object: fc.constant('event'),
    data: fc.oneof(
      fc.record({
        object: fc.record({
          id: fc.oneof(fc.constant(ctx.paymentIntentId), fc.constant(ctx.setupIntentId), eventField),
          status: eventField,
          amount: eventField,
          metadata: eventField,
          subscription: eventField,
        }),
      }),
      weirdValue,
    ),
  });
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc.tuple(weirdString, weirdString).map(([sig, body]) => post(`signature ${preview(sig)}`, body, headerSafe(sig))),
    },
    { weight: 1, arbitrary: weirdString.map((body) => post('no signature', body)) },
    {
      weight: 4,
      arbitrary: event.map((e) => {
        const body = toJson(e);
        return post(`signed event ${preview(body)}`, body, stripeSignature(body, ctx.webhookSecret));
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom('\\u0000', '\\ud800', '\\u001b'), fc.constantFrom('id', 'type', 'data')).map(([esc, where]) => {
        const body =
          where === 'data'
            ? `{"id":"evt_fuzz_esc_${Math.random()}","type":"payment_intent.succeeded","data":{"object":{"id":"pi_${esc}x"}}}`
            : where === 'id'
              ? `{"id":"evt_${esc}","type":"x"}`
              : `{"id":"evt_fuzz_t${Math.random()}","type":"a${esc}"}`;
        return post(`signed event with ${esc} in ${where}`, body, stripeSignature(body, ctx.webhookSecret));
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...INVALID_JSON, '[]', '{}', '"evt"', '1')
        .map((body) => post(`signed non-event ${preview(body)}`, body, stripeSignature(body, ctx.webhookSecret))),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 301, max: 10_000_000 }).map((age) => {
        const body = `{"id":"evt_old_${age}","type":"x"}`;
        return post(`signed ${age} s ago`, body, stripeSignature(body, ctx.webhookSecret, Math.floor(Date.now() / 1000) - age));
      }),
    },
  );
}

/** Every generated request, from a fixed seed: the same list on every run, so a failure reproduces. */
export function malformedRequests(ctx: FuzzContext, count: number, seed: number): RawRequest[] {
  const all = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...JSON_ENDPOINTS).chain((ep) => jsonEndpointRequests(ep, ctx)) },
    { weight: 4, arbitrary: getRequests(ctx) },
    { weight: 3, arbitrary: routingRequests() },
    { weight: 2, arbitrary: webhookRequests(ctx) },
  );
  return fc.sample(all, { seed, numRuns: count });
}

/** Bodies over 1 MB, once per endpoint that takes a body, declared or not. */
export function oversizeRequests(ctx: FuzzContext): RawRequest[] {
  const huge = JSON.stringify({ email: 'big@example.com', name: 'x'.repeat(1_200_000) });
  const paths = [
    ...JSON_ENDPOINTS.map((ep) => ep.path.replace(':id', ctx.testimonialId)),
    '/api/webhooks/stripe',
    '/api/sandbox/authenticate',
    '/api/health',
  ];
  return paths.flatMap((path) => [
    { label: `1.2 MB JSON to ${path}`, method: path.includes(ctx.testimonialId) ? 'PATCH' : 'POST', path, headers: json, body: huge },
    { label: `1.2 MB text to ${path}`, method: 'POST', path, headers: { 'content-type': 'text/plain' }, body: huge },
  ]);
}

function preview(value: unknown): string {
  const text = value instanceof RawJson ? value.description : toJson(value);
  return text.length > 80 ? `${text.slice(0, 77)}… (${text.length} chars)` : text;
}
