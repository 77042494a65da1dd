import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { formatPrice } from '../money';
import { defaultSiteDir, loadSite } from './site-folder';

/**
 * Issue 36's rule that the site folder holds every name and price: the product's code (the SPA,
 * the API, the worker; comments included, specs and their fixtures apart) holds none of the default site's names
 * or prices, so a seller's edit of the folder leaves nothing of the default site behind.
 */
const repo = join(__dirname, '../../../..');
const PRODUCT_DIRS = ['frontend/src', 'backend/src', 'worker/src'];
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(path);
    return /\.(spec|fixture)\.tsx?$/.test(entry.name) ? [] : [path];
  });
}

it("the product's code holds none of the default site's names and prices", () => {
  const site = loadSite(defaultSiteDir(__dirname));
  const { name, programName, methodName, founderName } = site.brand;
  const words = [name, programName, methodName, founderName, ...site.plans.map((plan) => plan.name)];
  const copy = new RegExp(
    [
      ...words.map((word) => `\\b${escape(word)}\\b`),
      // A price, not the start of another ('$97' but not '$970' nor '$9,700').
      ...site.plans.map((plan) => `${escape(formatPrice(plan.amount, site.currency))}(?![\\d,])`),
    ].join('|'),
  );
  const found = PRODUCT_DIRS.flatMap((dir) => productFiles(join(repo, dir))).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (copy.test(line) ? [`${relative(repo, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(found).toEqual([]);
});
