// Recounts the recipes of docs/architecture.md, run with the lint. A recipe's heading states how
// many files it took, "(N files, …)", and its "Measured on" paragraph lists them in backticks (a
// path ending in "/" stands for every tracked file under it) (a route such as `/account` is not a path) with the commits of the example they
// were measured on. Fails when the count is not the list's, when a listed file is gone from the
// tree (moved or deleted: measure again), or when a listed file's history holds none of the
// example's commits.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const DOC = 'docs/architecture.md';
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

/** Each measured recipe: its title, stated count, listed paths and example commits. */
function measuredRecipes(markdown) {
  const section = markdown.slice(markdown.indexOf('\n## Recipes'));
  return section
    .split('\n### ')
    .slice(1)
    .flatMap((recipe) => {
      const title = recipe.slice(0, recipe.indexOf('\n'));
      const stated = title.match(/\((\d+) files\b/);
      const measured = recipe.match(/\nMeasured on [\s\S]*?(?=\n\n|$)/);
      if (!stated || !measured) return [];
      const quoted = [...measured[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      return [
        {
          title,
          stated: Number(stated[1]),
          paths: quoted.filter((q) => q.includes('/') && !q.startsWith('/')),
          commits: quoted.filter((q) => /^[0-9a-f]{7,40}$/.test(q)),
        },
      ];
    });
}

/** What is wrong with one recipe's count, given the tracked files and each file's commits. */
function recipeProblems(recipe, tracked, historyOf) {
  const problems = [];
  let counted = 0;
  for (const path of recipe.paths) {
    if (path.endsWith('/')) {
      const under = tracked.filter((file) => file.startsWith(path)).length;
      if (under === 0) problems.push(`${path} holds no tracked file`);
      counted += under;
      continue;
    }
    counted += 1;
    if (!tracked.includes(path)) problems.push(`${path} is not in the tree`);
    else if (recipe.commits.length && !historyOf(path).some((c) => recipe.commits.some((e) => c.startsWith(e))))
      problems.push(`${path} was touched by none of ${recipe.commits.join(', ')}`);
  }
  if (counted !== recipe.stated) problems.push(`states ${recipe.stated} files, lists ${counted}`);
  if (recipe.paths.length === 0) problems.push('lists no files');
  return problems.map((problem) => `${DOC} "${recipe.title}": ${problem}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const recipes = measuredRecipes(readFileSync(resolve(root, DOC), 'utf8'));
  const tracked = git('ls-files', '--cached', '--others', '--exclude-standard').split('\n');
  const historyOf = (path) => git('log', '--follow', '--format=%H', '--', path).split('\n');
  const problems = recipes.flatMap((recipe) => recipeProblems(recipe, tracked, historyOf));
  if (recipes.length === 0) problems.push(`${DOC}: no recipe states a measured count`);
  for (const problem of problems) console.error(problem);
  process.exit(problems.length ? 1 : 0);
}
