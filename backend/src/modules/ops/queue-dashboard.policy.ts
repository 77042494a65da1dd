import type { IncomingHttpHeaders } from 'node:http';
import type { AdminAuditAction } from '@contracts/admin';

/** Where the API serves bull-board: outside /api, and not a page of the SPA. */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);

/** A browser navigating to a page (rather than the dashboard's own script fetching JSON). */
export const wantsPage = (method: string, accept: string | undefined): boolean => method === 'GET' && (accept ?? '').includes('text/html');

/**
 * Whether a mutating request comes from a page of this site. SameSite=Strict already keeps the
 * session cookie off cross-site requests; this also refuses anything a browser marks as coming
 * from elsewhere, and needs one positive sign (Origin or Sec-Fetch-Site) of being same-origin.
 */
export function isSameOrigin(headers: IncomingHttpHeaders, ownOrigins: readonly string[]): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = headers.origin;
  if (origin !== undefined) return ownOrigins.includes(origin);
  return site === 'same-origin';
}

export interface DashboardMutation {
  action: AdminAuditAction;
  /** `queue:<name>`, `queue:<name>/<state>`, `job:<queue>/<job id>`, or `queues:all`. */
  target: string;
}

type Params = Record<string, string | undefined>;

interface Rule {
  action: AdminAuditAction;
  target: (p: Params) => string;
  /** The job states a whole-queue action may touch. */
  states?: readonly string[];
  refusal?: string;
}

const queueTarget = (p: Params) => `queue:${p.queueName}`;
const stateTarget = (p: Params) => `queue:${p.queueName}/${p.queueStatus}`;
const jobTarget = (p: Params) => `job:${p.queueName}/${p.jobId}`;

/**
 * The dashboard's writes an admin may make, keyed by method and bull-board's route template.
 * Retrying only reruns failed jobs (every processor is idempotent); cleaning only drops finished
 * jobs. Adding or editing jobs would bypass the outbox, and emptying or obliterating a queue
 * would drop accepted work, so those (and every other write) are refused.
 */
const RULES: Readonly<Record<string, Rule>> = {
  'PUT /api/queues/:queueName/retry/:queueStatus': {
    action: 'queue.retry',
    target: stateTarget,
    states: ['failed'],
    refusal: 'Only failed jobs can be retried from the dashboard.',
  },
  'PUT /api/queues/:queueName/:jobId/retry': { action: 'queue.retry', target: jobTarget },
  'PUT /api/queues/:queueName/clean/:queueStatus': {
    action: 'queue.clean',
    target: stateTarget,
    states: ['completed', 'failed'],
    refusal: 'Only completed and failed jobs can be cleaned from the dashboard.',
  },
  'PUT /api/queues/:queueName/:jobId/clean': { action: 'queue.clean', target: jobTarget },
  'PUT /api/queues/:queueName/promote': { action: 'queue.promote', target: queueTarget },
  'PUT /api/queues/:queueName/:jobId/promote': { action: 'queue.promote', target: jobTarget },
  'PUT /api/queues/:queueName/pause': { action: 'queue.pause', target: queueTarget },
  'PUT /api/queues/:queueName/resume': { action: 'queue.resume', target: queueTarget },
  'PUT /api/queues/pause': { action: 'queue.pause', target: () => 'queues:all' },
  'PUT /api/queues/resume': { action: 'queue.resume', target: () => 'queues:all' },
};

export const DASHBOARD_WRITE_REFUSED = 'The queue dashboard can retry, clean, promote, pause and resume jobs; nothing else.';

/**
 * The audited action a dashboard write performs, or the reason it is refused. `route` is the
 * bull-board route template relative to QUEUE_DASHBOARD_PATH.
 */
export function dashboardMutation(method: string, route: string, params: Params): DashboardMutation | { refused: string } {
  const rule = RULES[`${method} ${route}`];
  if (!rule) return { refused: DASHBOARD_WRITE_REFUSED };
  if (rule.states && !rule.states.includes(params.queueStatus ?? '')) return { refused: rule.refusal ?? DASHBOARD_WRITE_REFUSED };
  return { action: rule.action, target: rule.target(params) };
}
