/**
 * No import cycle between the server's modules (src/server/modules/*): if a module imports another,
 * nothing the other imports, directly or through further modules, leads back to it. A module that
 * combines several owners sits above them, and a lookup lives with the data it reads.
 *
 * The rule sees the file being linted as it is now, and every other file of the modules as it is
 * on disk (tests left out, as in the layer rules): it reports each import that closes a cycle, with
 * the modules around it.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const MODULES = path.join('src', 'server', 'modules');
const TEST_FILE = /\.test\.tsx?$/;
const SOURCE_FILE = /\.tsx?$/;

/** The folder of the modules and the module a file belongs to, or null for a file outside them. */
function moduleOf(file) {
  const at = file.lastIndexOf(`${path.sep}${MODULES}${path.sep}`);
  if (at === -1) return null;
  const root = file.slice(0, at + MODULES.length + 1);
  const rest = file.slice(root.length + 1).split(path.sep);
  return rest.length > 1 ? { root, name: rest[0] } : null;
}

/** The module a relative import of `file` lands in, if it is another module of the same folder. */
function targetModule(file, specifier, from) {
  if (!specifier.startsWith('.')) return null;
  const target = moduleOf(path.resolve(path.dirname(file), specifier) + path.sep + 'x');
  return target && target.root === from.root && target.name !== from.name ? target.name : null;
}

/** Each file's imports, read once per change of the file. */
const scanned = new Map();

function importsOnDisk(file) {
  const { mtimeMs, size } = fs.statSync(file);
  const known = scanned.get(file);
  if (known && known.mtimeMs === mtimeMs && known.size === size) return known.specifiers;
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
  scanned.set(file, { mtimeMs, size, specifiers });
  return specifiers;
}

function sourceFilesUnder(folder) {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFilesUnder(full);
    return SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name) ? [full] : [];
  });
}

/** Which modules each module imports, from the files on disk but `except`. */
function moduleGraph(root, except) {
  const graph = new Map();
  for (const file of sourceFilesUnder(root)) {
    if (file === except) continue;
    const from = moduleOf(file);
    if (!from) continue;
    const edges = graph.get(from.name) ?? new Set();
    graph.set(from.name, edges);
    for (const specifier of importsOnDisk(file)) {
      const to = targetModule(file, specifier, from);
      if (to) edges.add(to);
    }
  }
  return graph;
}

/** The shortest way from `start` to `goal` along the graph's imports, or null. */
function pathBetween(graph, start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === goal) {
      const way = [];
      for (let step = current; step !== null; step = cameFrom.get(step)) way.unshift(step);
      return way;
    }
    for (const next of graph.get(current) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return null;
}

export const noModuleCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports that close a cycle between server modules' },
    schema: [],
    messages: {
      cycle:
        'Import cycle between server modules: {{cycle}}. Put what combines them in a module above both, or move the lookup to the module that owns its data.',
    },
  },
  create(context) {
    const file = context.physicalFilename ?? context.filename;
    const from = moduleOf(path.resolve(file));
    if (!from || TEST_FILE.test(file)) return {};
    /** The first import of each other module, where a cycle is reported. */
    const imports = new Map();
    const note = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string') return;
      const to = targetModule(path.resolve(file), specifier, from);
      if (to && !imports.has(to)) imports.set(to, node);
    };
    return {
      ImportDeclaration: note,
      ExportNamedDeclaration: note,
      ExportAllDeclaration: note,
      ImportExpression: note,
      'Program:exit'() {
        if (imports.size === 0) return;
        const graph = moduleGraph(from.root, path.resolve(file));
        const own = graph.get(from.name) ?? new Set();
        for (const to of imports.keys()) own.add(to);
        graph.set(from.name, own);
        for (const [to, node] of imports) {
          const back = pathBetween(graph, to, from.name);
          if (back) context.report({ node, messageId: 'cycle', data: { cycle: [from.name, ...back].join(' -> ') } });
        }
      },
    };
  },
};
