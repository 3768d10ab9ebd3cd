// What an offline app must precache for each browser entry of the package: the entry's file and
// every file it reaches, read from the built files themselves (static and lazy imports, and the
// `new URL('./x', import.meta.url)` of each .wasm), so the list follows the build.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rollup/parseAst';

/** The package's browser entries, as an app imports them, and their files in the exports map. */
export function browserEntries(packageDir) {
  const { exports } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  return {
    posenc: exports['.'].browser,
    'posenc/inline': exports['./inline'].default,
    'posenc/standalone': exports['./standalone'].default,
    'posenc/widgets': exports['./widgets'].default,
  };
}

/** Every node of an ESTree AST. */
function* nodes(node) {
  if (Array.isArray(node)) {
    for (const child of node) yield* nodes(child);
  } else if (node && typeof node.type === 'string') {
    yield node;
    for (const [key, child] of Object.entries(node))
      if (key !== 'type' && typeof child === 'object') yield* nodes(child);
  }
}

const isImportMetaUrl = (node) =>
  node?.type === 'MemberExpression' && node.object.type === 'MetaProperty' && node.property.name === 'url';

/** A string literal's value; a file that computes what it loads cannot have its list read. */
function literal(node, file) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  throw new Error(`${file} loads a computed specifier (${node.type}): its precache list cannot be read from it`);
}

/**
 * What a JS file refers to (parsed, so code and comments that merely look like imports do not
 * count): import and export sources, import() of a literal, new URL(literal, import.meta.url).
 * Each must be relative: nothing else can be cached beside it.
 */
function references(file) {
  const found = new Set();
  for (const node of nodes(parseAst(readFileSync(file, 'utf8')))) {
    let specifier;
    if (/^(Import|ExportNamed|ExportAll)Declaration$/.test(node.type)) specifier = node.source?.value;
    else if (node.type === 'ImportExpression') specifier = literal(node.source, file);
    else if (node.type === 'NewExpression' && node.callee.name === 'URL' && isImportMetaUrl(node.arguments[1]))
      specifier = literal(node.arguments[0], file);
    if (specifier === undefined) continue;
    if (typeof specifier !== 'string' || !/^\.\.?\//.test(specifier))
      throw new Error(`${file} refers to ${specifier}, which is not a file beside it`);
    found.add(specifier);
  }
  return [...found];
}

/** The files `entry` (a path in the package, './dist/…') reaches, as paths relative to the package, sorted. */
export function precacheList(packageDir, entry) {
  const seen = new Set();
  const visit = (relative) => {
    const normal = path.posix.normalize(relative);
    if (seen.has(normal)) return;
    const file = path.join(packageDir, normal);
    if (!existsSync(file)) throw new Error(`${normal} is referred to but not in the package`);
    seen.add(normal);
    if (/\.m?js$/.test(normal)) {
      for (const specifier of references(file)) visit(path.posix.join(path.posix.dirname(normal), specifier));
    }
  };
  visit(entry);
  return [...seen].sort();
}
