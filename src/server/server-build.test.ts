import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureServerBuild, SERVER_BUILD_SOURCES, SERVER_OUT_DIR, serverBuildFolder } from '../../scripts/build-server.mjs';
import { PROJECT_ROOT } from './project-root';

let root: string;

function put(file: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
}

/** Runs a build's entry with node and returns what it printed. */
function run(entry: string): unknown {
  return JSON.parse(execFileSync(process.execPath, [entry], { encoding: 'utf8' }));
}

beforeEach(() => {
  // A small project of the same shape: a start.ts that imports a shared module and finds the project folder.
  root = mkdtempSync(path.join(tmpdir(), 'portal-server-build-'));
  put('package.json', '{"type":"module"}');
  put('package-lock.json', '{}');
  mkdirSync(path.join(root, 'drizzle'));
  copyFileSync(path.join(PROJECT_ROOT, 'tsconfig.json'), path.join(root, 'tsconfig.json'));
  mkdirSync(path.join(root, 'src/server'), { recursive: true });
  copyFileSync(path.join(PROJECT_ROOT, 'src/server/project-root.ts'), path.join(root, 'src/server/project-root.ts'));
  put('src/shared/answer.ts', 'export const answer: number = 42;');
  put(
    'src/server/start.ts',
    [
      "import { answer } from '../shared/answer';",
      "import { PROJECT_ROOT } from './project-root';",
      'console.log(JSON.stringify({ root: PROJECT_ROOT, answer }));',
    ].join('\n'),
  );
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('ensureServerBuild', () => {
  it('bundles start.ts into JavaScript that finds the project folder from its build folder', async () => {
    const { entry, built } = await ensureServerBuild(root);
    expect(built).toBe(true);
    expect(path.dirname(entry)).toBe(serverBuildFolder(root));
    expect(path.relative(root, entry)).toMatch(new RegExp(`^${SERVER_OUT_DIR}/[0-9a-f]{16}/start\\.js$`));
    expect(run(entry)).toEqual({ root: path.resolve(root), answer: 42 });
  });

  it('builds again only when a source changed, not for a test file', async () => {
    const first = await ensureServerBuild(root);
    put('src/server/start.test.ts', 'it.todo("starts");');
    expect(await ensureServerBuild(root)).toEqual({ entry: first.entry, built: false });

    put('src/shared/answer.ts', 'export const answer: number = 43;');
    const second = await ensureServerBuild(root);
    expect(second.built).toBe(true);
    expect(second.entry).not.toBe(first.entry);
    expect(run(second.entry)).toMatchObject({ answer: 43 });
    // The older build stays: a server still running it may yet load one of its chunks.
    expect(existsSync(first.entry)).toBe(true);
  });

  it('keeps the newest three builds and no unfinished one', async () => {
    put(`${SERVER_OUT_DIR}/0123456789abcdef.tmp-1/start.js`, '');
    for (const answer of [1, 2, 3, 4, 5]) {
      put('src/shared/answer.ts', `export const answer: number = ${answer};`);
      await ensureServerBuild(root);
    }
    expect(readdirSync(path.join(root, SERVER_OUT_DIR))).toHaveLength(3);
  });
});

describe('SERVER_BUILD_SOURCES', () => {
  it('names files and folders of this project', () => {
    expect(SERVER_BUILD_SOURCES.filter((entry) => !existsSync(path.join(PROJECT_ROOT, entry)))).toEqual([]);
  });
});
