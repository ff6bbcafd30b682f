/**
 * @jest-environment node
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const repo = path.resolve(__dirname, '../../..');
const FACE = path.join(repo, 'src/server/index.ts');

/**
 * Names on the face that no plugin imports yet but a new plugin is told to use: the names the
 * README's "Adding a workflow" examples import from src/server, a contribution kind of one's
 * own (contributionKind, named in the README's text) and the older step form the README says
 * still runs (`contribute(AutomationActions, …)`, AutomationTriggers), which the plugins that
 * tests write into temporary folders use.
 */
const DOCUMENTED_CONTRACT = new Set<string>([
  ...[...readFileSync(path.join(repo, 'README.md'), 'utf8').matchAll(/import \{([^}]*)\} from '\.\.\/\.\.\/src\/server'/g)].flatMap((m) =>
    m[1]
      .split(',')
      .map((s) => s.trim().replace(/^type /, ''))
      .filter(Boolean),
  ),
  'contributionKind',
  'ContributionKind',
  'AutomationActions',
  'AutomationTriggers',
]);

function moduleFile(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((f) => existsSync(f));
}

/** The names a module exports, read from its source (following `export * from`), without the type checker. */
export function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const isExported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const n of sf.statements) {
    if (ts.isExportDeclaration(n)) {
      if (n.exportClause && ts.isNamedExports(n.exportClause)) n.exportClause.elements.forEach((e) => names.add(e.name.text));
      else if (n.exportClause && ts.isNamespaceExport(n.exportClause)) names.add(n.exportClause.name.text);
      else if (n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
        const target = moduleFile(file, n.moduleSpecifier.text);
        if (target) exportedNames(target, seen).forEach((x) => names.add(x));
      }
    } else if (isExported(n)) {
      if (ts.isVariableStatement(n)) n.declarationList.declarations.forEach((d) => ts.isIdentifier(d.name) && names.add(d.name.text));
      else if (
        (ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isEnumDeclaration(n)) &&
        n.name
      )
        names.add(n.name.text);
    }
  }
  return names;
}

/** What one file imports from the server's face (a file under tests/fixtures/drop-in is read as if dropped into the repository). */
export function faceImports(file: string, source: string): string[] {
  const at = file.replace(path.join(repo, 'tests/fixtures/drop-in') + path.sep, repo + path.sep).replace(/\.txt$/, '');
  const sf = ts.createSourceFile(at, source, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const n of sf.statements) {
    if (!(ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) || !n.moduleSpecifier || !ts.isStringLiteral(n.moduleSpecifier)) continue;
    const target = path.resolve(path.dirname(at), n.moduleSpecifier.text);
    if (target !== path.join(repo, 'src/server') && target !== path.join(repo, 'src/server/index')) continue;
    const clause = ts.isImportDeclaration(n) ? n.importClause?.namedBindings : n.exportClause;
    if (clause && (ts.isNamedImports(clause) || ts.isNamedExports(clause))) clause.elements.forEach((e) => out.push((e.propertyName ?? e.name).text));
    else out.push('*');
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(p);
    return /\.tsx?(\.txt)?$/.test(name) ? [p] : [];
  });
}

describe("src/server's face exports what plugins use and nothing more", () => {
  const used = new Set(
    [...sourceFiles(path.join(repo, 'plugins')), ...sourceFiles(path.join(repo, 'tests/fixtures/drop-in/plugins'))].flatMap((f) =>
      faceImports(f, readFileSync(f, 'utf8')),
    ),
  );

  it('every name on the face is imported by a plugin (or is a documented part of the contract)', () => {
    expect(used.has('*')).toBe(false);
    const unused = [...exportedNames(FACE)].filter((n) => !used.has(n) && !DOCUMENTED_CONTRACT.has(n)).sort();
    expect(unused).toEqual([]);
  });

  it('the documented contract names are on the face', () => {
    const face = exportedNames(FACE);
    expect([...DOCUMENTED_CONTRACT].filter((n) => !face.has(n))).toEqual([]);
  });

  it('reads names from export lists, declarations and export *; imports of the face from a plugin and a drop-in', () => {
    expect([...exportedNames(path.join(repo, 'src/server/http/ids.ts'))].sort()).toEqual(['asId', 'parseId']);
    const plugin = path.join(repo, 'plugins', 'sneaky', 'server.ts');
    expect(
      faceImports(plugin, `import { T, type Db } from '../../src/server';\nexport { notFound as nf } from '../../src/server/index';\nimport x from 'react';`),
    ).toEqual(['T', 'Db', 'notFound']);
    const dropIn = path.join(repo, 'tests/fixtures/drop-in/plugins/x/server.ts.txt');
    expect(faceImports(dropIn, `import { defineAction } from '../../src/server';`)).toEqual(['defineAction']);
  });
});
