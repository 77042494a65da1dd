// ESLint rule `cycles/no-cycle`: no file may reach itself again through the modules it imports.
// A cycle makes load order decide what a module sees (an import still undefined while its module
// runs) and ties folders together that docs/architecture.md keeps apart. Type-only imports and
// exports are left out: they vanish from the compiled code. Dynamic imports count: the module they
// load still runs inside the cycle.
//
// The graph is read once per lint run, each file parsed by TypeScript's parser on first use, and
// its strongly connected components computed (Tarjan) as files are linted: an import is refused
// when its target sits in the importer's component.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { targetOf } from './boundaries.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The absolute path of the TypeScript file `source` names from `file`, or null (a package, JSON, CSS). */
function resolveImport(file, source) {
  const target = targetOf(relative(root, file), source);
  if (target === null) return null;
  const base = resolve(root, target);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const onlyTypes = (clause) =>
  clause.isTypeOnly ||
  (!clause.name &&
    clause.namedBindings?.kind === ts.SyntaxKind.NamedImports &&
    clause.namedBindings.elements.length > 0 &&
    clause.namedBindings.elements.every((element) => element.isTypeOnly));

/** The module specifiers a file loads when it runs: static imports, re-exports and import(). */
function runtimeSpecifiers(file) {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const specifiers = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      if (!node.importClause || !onlyTypes(node.importClause)) specifiers.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isExportDeclaration(node)) {
      const typesOnly =
        node.isTypeOnly ||
        (node.exportClause?.kind === ts.SyntaxKind.NamedExports &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((element) => element.isTypeOnly));
      if (node.moduleSpecifier && !typesOnly) specifiers.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return specifiers;
}

const edges = new Map();
/** The files `file` loads at run time (resolved, deduplicated). */
function edgesOf(file) {
  let targets = edges.get(file);
  if (!targets) {
    targets = [
      ...new Set(
        runtimeSpecifiers(file)
          .map((source) => resolveImport(file, source))
          .filter(Boolean),
      ),
    ];
    edges.set(file, targets);
  }
  return targets;
}

const componentOf = new Map();
let nextComponent = 0;

/** Tarjan's strongly connected components over every file reachable from `start` not yet placed. */
function placeComponents(start) {
  if (componentOf.has(start)) return;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  let counter = 0;
  const work = [[start, 0]];
  index.set(start, counter);
  low.set(start, counter++);
  stack.push(start);
  onStack.add(start);
  while (work.length) {
    const frame = work[work.length - 1];
    const [node, next] = frame;
    const targets = edgesOf(node);
    if (next < targets.length) {
      frame[1] = next + 1;
      const target = targets[next];
      if (componentOf.has(target)) continue;
      if (!index.has(target)) {
        index.set(target, counter);
        low.set(target, counter++);
        stack.push(target);
        onStack.add(target);
        work.push([target, 0]);
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
      continue;
    }
    work.pop();
    if (work.length) {
      const parent = work[work.length - 1][0];
      low.set(parent, Math.min(low.get(parent), low.get(node)));
    }
    if (low.get(node) === index.get(node)) {
      const component = nextComponent++;
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        componentOf.set(member, component);
      } while (member !== node);
    }
  }
}

/** The shortest chain of imports from `from` back to `to`, for the message. */
function pathBetween(from, to) {
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const node = queue.shift();
    if (node === to) break;
    for (const target of edgesOf(node)) {
      if (previous.has(target) || componentOf.get(target) !== componentOf.get(from)) continue;
      previous.set(target, node);
      queue.push(target);
    }
  }
  const chain = [];
  for (let node = to; node !== null && node !== undefined; node = previous.get(node)) chain.unshift(relative(root, node));
  return chain;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses imports that close a cycle of run-time imports' },
    schema: [],
    messages: { cycle: 'Import of "{{source}}" closes an import cycle: {{chain}}. Move what both sides need to a module neither imports.' },
  },
  create(context) {
    const file = resolve(context.filename);
    if (!/\.tsx?$/.test(file) || !existsSync(file)) return {};
    placeComponents(file);
    const check = (node, source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (node.importKind === 'type' || node.exportKind === 'type') return;
      if (node.specifiers?.length && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type')) return;
      const target = resolveImport(file, source.value);
      if (!target || componentOf.get(target) !== componentOf.get(file)) return;
      const chain = [relative(root, file), ...pathBetween(target, file)].join(' → ');
      context.report({ node: source, messageId: 'cycle', data: { source: source.value, chain } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { meta: { name: 'cycles' }, rules: { 'no-cycle': rule } };
