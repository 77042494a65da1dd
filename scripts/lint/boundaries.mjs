// ESLint rule `boundaries/imports`: which folder may import which, written down once.
// Each file falls into a zone by its path; an import (static, dynamic, require, re-export) is
// resolved to the file it names, aliases included, and refused when the importer's zone may not
// reach the target's. Packages are not checked here.
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const ALIASES = [
  ['@contracts/', 'backend/src/contracts/'],
  ['@core/', 'backend/src/core/'],
];

/** The zone of a repository-relative path, e.g. `module:leads`, `frontend-feature:checkout`. */
export function zoneOf(path) {
  const p = path.split(sep).join('/');
  let m;
  if (p.startsWith('backend/src/contracts/')) return 'contracts';
  if (p.startsWith('backend/src/core/')) return 'core';
  if (p.startsWith('backend/src/common/')) return 'common';
  if ((m = p.match(/^backend\/src\/modules\/([^/]+)\//))) return `module:${m[1]}`;
  if (p.startsWith('backend/src/')) return 'api-root';
  if (p.startsWith('worker/src/')) return 'worker';
  if ((m = p.match(/^frontend\/src\/features\/([^/]+)\//))) return `frontend-feature:${m[1]}`;
  if (/^frontend\/src\/(lib|components|content)\//.test(p)) return 'frontend-shared';
  if (p.startsWith('frontend/src/app/')) return 'frontend-app';
  if (p.startsWith('frontend/')) return 'frontend';
  if (p.startsWith('tests/fakes/')) return 'fakes';
  return 'outside';
}

const EXPLAIN = {
  contracts: 'contracts are framework-free and import nothing of ours but other contracts',
  core: 'the core imports only the core and @contracts (no HTTP modules, no common/)',
  common: 'common/ (shared HTTP building blocks) imports only common/, @core and @contracts',
  module: 'a feature module imports only its own folder, common/, @core and @contracts: features never import each other',
  worker: 'the worker imports only @core and @contracts',
  frontend: 'the frontend imports only @contracts from the server',
  'frontend-feature': 'a frontend feature never imports another feature: move what they share to lib/ or components/',
  'frontend-feature-up':
    'a frontend feature imports only its own folder, lib/, components/, content/ and @contracts (never app/ or an entry)',
  'frontend-shared':
    'lib/, components/ and content/ are shared: they import only each other and @contracts, never a feature, app/ or an entry',
};

/**
 * Inside the core, folders that sit on top of another may not be imported by it: the repositories
 * (database/) hold the SQL everything else builds on, so they import neither the payment port and
 * its adapters, nor the outbox's `owe`, nor the order lifecycle (its module is imported by the
 * API's and the worker's modules); what both sides need lives below them (@contracts, or the
 * repositories' row types, such as an order's statuses).
 */
const CORE_NEVER = {
  database: ['payments', 'queue', 'orders'],
};

/** The core folder of a core path (`database`, `payments`, …). */
const coreFolderOf = (path) => path.split('/')[3];

/**
 * A payment provider's adapter is reached through the gateway module, which picks it by name:
 * nothing else depends on one provider. Besides the adapters and the module, only the provider's
 * own face outside the core may import it, listed here.
 */
const GATEWAY_MODULE = 'backend/src/core/payments/payment-gateway.module.ts';
const PROVIDER_FACES = {
  // The sandbox stands in for the provider's own API and webhooks: its HTTP controller (Nest
  // controllers live in modules, and the payments module registers it with its services) and
  // the worker's delivery of its webhooks.
  sandbox: [
    'backend/src/modules/payments/sandbox/',
    'backend/src/modules/payments/payments.module.ts',
    'worker/src/handlers/sandbox-webhook.handler.ts',
  ],
  // The webhook receiver warns with the Stripe API version the adapter pins.
  stripe: ['backend/src/modules/payments/webhooks/'],
};
const PROVIDERS_WHY = 'a payment provider is reached only through core/payments/payment-gateway.module.ts (its own folder aside)';

/** Why the file `from` may not import the provider file `to`, or null when it may (or `to` is no provider's). */
function providerRefusal(from, to) {
  const m = to.match(/^backend\/src\/core\/payments\/providers\/([^/]+)(\/|$)/);
  if (!m) return null;
  const provider = m[1];
  // Adapters may share code: the sandbox speaks Stripe's wire format.
  if (from.startsWith('backend/src/core/payments/providers/') || from === GATEWAY_MODULE) return null;
  return (PROVIDER_FACES[provider] ?? []).some((face) => from.startsWith(face)) ? null : PROVIDERS_WHY;
}

/** Why the core file `from` may not import the core file `to`, or null when it may. */
function coreRefusal(from, to) {
  const [fromFolder, toFolder] = [coreFolderOf(from), coreFolderOf(to)];
  if (!(CORE_NEVER[fromFolder] ?? []).includes(toFolder)) return null;
  return `core/${fromFolder} never imports core/${toFolder}, which builds on it: move what both need to @contracts or to core/${fromFolder}`;
}

/** Why `from` may not import `to`, or null when it may. */
export function refusal(from, to, isSpec) {
  const [fromKind, fromName] = from.split(':');
  const [toKind, toName] = to.split(':');
  // A server spec may start one of the loopback fakes that stand in for a third party.
  if (isSpec && to === 'fakes' && !fromKind.startsWith('frontend')) return null;
  switch (fromKind) {
    case 'contracts':
      return to === 'contracts' ? null : EXPLAIN.contracts;
    case 'core':
      return to === 'core' || to === 'contracts' ? null : EXPLAIN.core;
    case 'common':
      return ['common', 'core', 'contracts'].includes(to) ? null : EXPLAIN.common;
    case 'module':
      return (toKind === 'module' && toName === fromName) || ['common', 'core', 'contracts'].includes(to) ? null : EXPLAIN.module;
    case 'worker':
      return ['worker', 'core', 'contracts'].includes(to) ? null : EXPLAIN.worker;
    case 'frontend':
    case 'frontend-app':
      return to === 'contracts' || toKind.startsWith('frontend') ? null : EXPLAIN.frontend;
    case 'frontend-shared':
      return to === 'contracts' || to === 'frontend-shared' ? null : EXPLAIN['frontend-shared'];
    case 'frontend-feature':
      if (to === 'contracts' || to === 'frontend-shared' || (toKind === 'frontend-feature' && toName === fromName)) return null;
      if (toKind === 'frontend-feature') return EXPLAIN['frontend-feature'];
      return toKind.startsWith('frontend') ? EXPLAIN['frontend-feature-up'] : EXPLAIN.frontend;
    default:
      return null;
  }
}

/** The repository-relative path (without extension) that `source` names from `filename`, or null for a package. */
export function targetOf(filename, source) {
  for (const [alias, dir] of ALIASES) if (source.startsWith(alias)) return dir + source.slice(alias.length);
  if (source.startsWith('@/') && filename.startsWith('frontend/')) return 'frontend/src/' + source.slice(2);
  if (source.startsWith('.')) return relative(root, resolve(root, dirname(filename), source));
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps imports inside the boundaries of docs/architecture.md' },
    schema: [],
    messages: { refused: 'Import of "{{source}}" crosses a boundary: {{why}}.' },
  },
  create(context) {
    const filename = relative(root, context.filename);
    const from = zoneOf(filename);
    if (from === 'outside' || from === 'fakes' || from === 'api-root') return {};
    const isSpec = /\.spec\.tsx?$/.test(filename);
    const check = (node) => {
      if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return;
      const target = targetOf(filename, node.value);
      if (target === null) return;
      const to = zoneOf(target);
      const why =
        refusal(from, to, isSpec) ??
        providerRefusal(filename, target) ??
        (from === 'core' && to === 'core' ? coreRefusal(filename, target) : null);
      if (why) context.report({ node, messageId: 'refused', data: { source: node.value, why } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      'CallExpression[callee.name="require"]': (node) => check(node.arguments[0]),
      'CallExpression[callee.object.name="jest"][callee.property.name="mock"]': (node) => check(node.arguments[0]),
    };
  },
};

export default { meta: { name: 'boundaries' }, rules: { imports: rule } };
