// The frontend's unit specs import copy files as the SPA does (`@site/copy/landing.json`, mapped in
// jest.config.js to the default site's file); this gives them what the build's plugin gives the
// bundle (frontend/vite/site.plugin.ts): the chosen site's file (SITE_DIR), checked against the
// default's, with the site's terms filled in. site.json itself passes through.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join, relative } = require('node:path');
const ts = require('typescript');

const loaded = new Map();

/** Loads one of the repository's TypeScript modules (and the relative ones it imports) in plain Node. */
function requireTs(file) {
  if (loaded.has(file)) return loaded.get(file).exports;
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dirname(file));
  loaded.set(file, mod);
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const localRequire = (request) => (request.startsWith('.') ? requireTs(`${join(dirname(file), request)}.ts`) : mod.require(request));
  new Function('require', 'module', 'exports', outputText)(localRequire, mod, mod.exports);
  return mod.exports;
}

const folder = () => requireTs(join(__dirname, '../../backend/src/contracts/site/site-folder.ts'));

module.exports = {
  // What the result depends on: the default's file, and the chosen site's site.json and file.
  getCacheKey(source, path) {
    const { defaultSiteDir, siteDir } = folder();
    const dir = siteDir(dirname(path));
    const read = (file) => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '(none)';
      }
    };
    const chosen = join(dir, relative(defaultSiteDir(dirname(path)), path));
    return createHash('sha256')
      .update([path, source, read(join(dir, 'site.json')), chosen, read(chosen)].join('\0'))
      .digest('hex');
  },
  process(source, path) {
    const { defaultSiteDir, loadCopy, loadSite, siteDir } = folder();
    const defaultDir = defaultSiteDir(dirname(path));
    const relativePath = relative(defaultDir, path);
    if (relativePath === 'site.json') return { code: source };
    const dir = siteDir(dirname(path));
    return { code: JSON.stringify(loadCopy(dir, defaultDir, relativePath, loadSite(dir))) };
  },
};
