// Functions longer than a limit (lines from the first to the last line of the function, nested
// functions included), found with the TypeScript compiler API: function declarations and
// expressions, arrow functions, methods, constructors and accessors in .ts/.mts files.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 100;

function tsFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (/\.m?ts$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** the name a reader would search for: the declaration's, or the variable / property it is assigned to */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name))
    return p.name.text;
  return '<anonymous>';
}

const isFunction = (n) =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

/** functions of one source text longer than `max` lines: [{name, line, lines}] */
export function longFunctionsIn(text, fileName = 'x.ts', max = MAX_FUNCTION_LINES) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (n) => {
    if (isFunction(n) && n.body) {
      const start = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) out.push({ name: nameOf(n), line: start + 1, lines });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** every function over `max` lines under `dirs` of `root`: [{file, name, line, lines}], longest first */
export function longFunctions(root, dirs = ['pipeline'], max = MAX_FUNCTION_LINES) {
  const out = [];
  for (const d of dirs) {
    for (const f of tsFiles(join(root, d))) {
      for (const x of longFunctionsIn(readFileSync(f, 'utf8'), f, max)) out.push({ file: relative(root, f), ...x });
    }
  }
  return out.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}
