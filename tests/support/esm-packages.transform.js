// Jest 29 loads modules with its own CommonJS require, which cannot load ES modules the way Node's
// require(esm) does. NestJS 12 and a few of its dependencies ship only ES modules: this turns
// those files (a package.json with "type": "module" above them, or .mjs) into CommonJS; every
// other file passes through untouched.
const { createHash } = require('node:crypto');
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const ts = require('typescript');

const typeOfDir = new Map();

/** Whether the nearest package.json above `file` declares "type": "module". */
function inModulePackage(file) {
  const seen = [];
  let dir = dirname(file);
  let isModule = false;
  for (;;) {
    if (typeOfDir.has(dir)) {
      isModule = typeOfDir.get(dir);
      break;
    }
    seen.push(dir);
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      isModule = JSON.parse(readFileSync(manifest, 'utf8')).type === 'module';
      break;
    }
    if (dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  for (const each of seen) typeOfDir.set(each, isModule);
  return isModule;
}

module.exports = {
  process(source, file) {
    if (!file.endsWith('.mjs') && !inModulePackage(file)) return { code: source };
    // CommonJS has no import.meta; the module's own URL is all these packages read from it, mostly
    // to make the `require` that CommonJS already has (declaring it again is a syntax error there).
    const text = source
      .replace(/^const require = createRequire\(import\.meta\.url\);?$/m, '')
      .replace(/\bimport\.meta\.url\b/g, "require('node:url').pathToFileURL(__filename).href");
    const { outputText } = ts.transpileModule(text, {
      fileName: file.replace(/\.m?js$/, '.ts'),
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    return { code: outputText };
  },
  getCacheKey(source, file) {
    return createHash('sha1').update('esm-packages-2').update(file).update('\0').update(source).digest('hex');
  },
};
