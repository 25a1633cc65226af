/**
 * What each published package imports at run time, against what its package.json declares. A user
 * installs a package with its `dependencies` (and its non-optional `peerDependencies`) and nothing
 * else, so every bare import of a shipped source file must be one of those — or an optional peer
 * dependency or an optional dependency (which npm skips where it cannot install), imported only by a
 * dynamic `import()` that turns its absence into a clear error or a fallback that says so.
 * `npm run deps` runs the check (part of `npm run check`); it reads the sources that
 * `tsconfig.build.json` compiles into `dist/`, so it needs no build.
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** One import of a shipped source file. */
export interface PackageImport {
  /** The file, relative to the repository root. */
  file: string;
  /** The package imported: `pg`, `@treeagent/core` (never a subpath). */
  name: string;
  /** `static`: `import … from`, `export … from`; `dynamic`: `import()`; `type`: erased at run time. */
  kind: 'static' | 'dynamic' | 'type';
}

/** A relative import between two source files of a package, erased type-only imports excluded. */
export interface FileEdge {
  from: string;
  to: string;
}

/** A package.json, as far as this check reads it. */
export interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  /** Installed with the package when they can be (a platform without a build skips them). */
  optionalDependencies?: Record<string, string>;
}

const BUILTINS = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for relative and built-in ones. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? null : name;
}

/**
 * The bare imports of one source file: static and type imports, re-exports, `import('x')` types and
 * dynamic `import()` of a string literal or of a `const` bound to one in the same file (the way an
 * optional dependency is imported without a bundler resolving it).
 */
export function importsOf(file: string, source: string): PackageImport[] {
  return scan(file, source).imports;
}

/** The static relative imports of one source file, as paths resolved beside it (`.js` → `.ts`). */
export function relativeImportsOf(file: string, source: string): FileEdge[] {
  return scan(file, source).edges;
}

function scan(file: string, source: string): { imports: PackageImport[]; edges: FileEdge[] } {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const constants = new Map<string, string>();
  const found: PackageImport[] = [];
  const edges: FileEdge[] = [];
  const add = (specifier: string, kind: PackageImport['kind']) => {
    if (specifier.startsWith('.') && kind === 'static')
      edges.push({ from: file, to: join(dirname(file), specifier).replace(/\.js$/, '.ts') });
    const name = packageOf(specifier);
    if (name) found.push({ file, name, kind });
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isStringLiteralLike(node.initializer) &&
      ts.getCombinedNodeFlags(node) & ts.NodeFlags.Const
    ) {
      constants.set(node.name.text, node.initializer.text);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly ? 'type' : 'static');
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly ? 'type' : 'static');
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal))
        add(argument.literal.text, 'type');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) add(argument.text, 'dynamic');
      else if (argument && ts.isIdentifier(argument)) {
        const value = constants.get(argument.text);
        if (value !== undefined) add(value, 'dynamic');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { imports: found, edges };
}

/**
 * Every import that the manifest does not cover, as a sentence naming the file and the fix. An
 * optional peer dependency may be imported statically only by files that the package's root entry
 * point does not load (`rootFiles`): a subpath for that peer's users, as `@treeagent/core/conformance`
 * is for vitest's.
 */
export function undeclaredImports(
  manifest: Manifest,
  imports: readonly PackageImport[],
  rootFiles: ReadonlySet<string> = new Set(imports.map((entry) => entry.file)),
): string[] {
  const problems: string[] = [];
  const required = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => !manifest.peerDependenciesMeta?.[name]?.optional,
    ),
  ]);
  // An optional dependency may be missing too (npm skips one that cannot install): the same rule.
  const optional = new Set([
    ...Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => manifest.peerDependenciesMeta?.[name]?.optional,
    ),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  for (const { file, name, kind } of imports) {
    if (name === manifest.name || required.has(name)) continue;
    if (optional.has(name)) {
      if (kind === 'static' && rootFiles.has(file))
        problems.push(
          `${file} imports the optional peer dependency "${name}" statically, and ${manifest.name}'s root entry point loads it: installs without it fail to load. Import it with import() and say how to install it when it is missing, or move it to a subpath.`,
        );
      continue;
    }
    problems.push(
      `${file} imports "${name}" (${kind === 'type' ? 'its types reach the published .d.ts' : 'at run time'}), which ${manifest.name}'s package.json does not declare: add it to "dependencies", or to "peerDependencies" with "peerDependenciesMeta": { "optional": true } if it stays optional.`,
    );
  }
  return problems;
}

/**
 * `@treeagent/core` depends on no other package of the repository, in any form: a static or type
 * import, and also an `import()` by a string or a `const` (a hidden cycle no import graph shows, and
 * a core whose behaviour depends on what else is installed). Declaring the package does not make it
 * right, so this holds whatever core's package.json says.
 */
export function coreImportsOfOtherPackages(manifest: Manifest, imports: readonly PackageImport[]): string[] {
  if (manifest.name !== '@treeagent/core') return [];
  return imports
    .filter(({ name }) => name.startsWith('@treeagent/') && name !== manifest.name)
    .map(
      ({ file, name, kind }) =>
        `${file} imports "${name}" (${kind}): @treeagent/core depends on no other Tree Agent package. Take what it needs as an option (as TreeAgentOptions.spaceFitter takes @treeagent/fit's fitter) and pass it from the CLI, the server or the user's code.`,
    );
}

/** The source files that a package's `tsconfig.build.json` compiles into its `dist/`. */
export function shippedSources(packageDirectory: string): string[] {
  const configPath = join(packageDirectory, 'tsconfig.build.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(`${configPath}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(configPath)).fileNames;
}

/** The problems of one package folder (`packages/cli`), its files named relative to `root`. */
export function checkPackage(root: string, packageDirectory: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as Manifest & {
    exports?: Record<string, string | { default: string }>;
  };
  const scanned = shippedSources(packageDirectory).map((file) =>
    scan(relative(root, file), readFileSync(file, 'utf8')),
  );
  const rootEntry = manifest.exports?.['.'];
  const entry =
    rootEntry && typeof rootEntry !== 'string'
      ? relative(
          root,
          join(packageDirectory, rootEntry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')),
        )
      : null;
  const edges = scanned.flatMap((result) => result.edges);
  const imports = scanned.flatMap((result) => result.imports);
  return [
    ...coreImportsOfOtherPackages(manifest, imports),
    ...undeclaredImports(manifest, imports, entry ? reachable(entry, edges) : undefined),
  ];
}

/** The files `start` loads, directly or not, itself included. */
export function reachable(start: string, edges: readonly FileEdge[]): Set<string> {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const to of next.get(file) ?? []) {
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}
