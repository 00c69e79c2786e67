import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules (eslint.layers.js) must catch a violation planted in a real place of the tree,
 * and let the same file's legitimate imports through.
 */
const root = path.resolve(import.meta.dirname, '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function errorsOf(rule: (ruleId: string) => boolean, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && rule(m.ruleId)).map((m) => m.message);
}

const layerErrors = (file: string, code: string) => errorsOf((id) => id.startsWith('boundaries/'), file, code);
const cycleErrors = (file: string, code: string) => errorsOf((id) => id === 'portal/no-module-cycle', file, code);

describe('layer rules', () => {
  it("refuse a service that reads another module's repository, and allow its service", async () => {
    const file = 'src/server/modules/reports/service.ts';
    expect(await layerErrors(file, "import { findStudent } from '../roster/repository';\nexport const f = findStudent;\n")).toHaveLength(1);
    expect(await layerErrors(file, "import { findStudent } from '../roster/service';\nexport const f = findStudent;\n")).toEqual([]);
  });

  it('refuse routes that call a repository or another module, and allow their own service', async () => {
    const file = 'src/server/modules/roster/routes.ts';
    expect(await layerErrors(file, "import { findStudent } from './repository';\nexport const f = findStudent;\n")).toHaveLength(1);
    expect(await layerErrors(file, "import { listUsers } from '../accounts/service';\nexport const f = listUsers;\n")).toHaveLength(1);
    expect(await layerErrors(file, "import { findStudent } from './service';\nexport const f = findStudent;\n")).toEqual([]);
  });

  it("let a file of a module's service layer call another module's service, and nothing else of it", async () => {
    const file = 'src/server/modules/roster-import/roster-file.ts';
    expect(await layerErrors(file, "import { ROSTER_HEADER } from '../roster/service';\nexport const h = ROSTER_HEADER;\n")).toEqual([]);
    expect(await layerErrors(file, "import { isStrongPassword } from '../accounts/password-strength';\nexport const f = isStrongPassword;\n")).toHaveLength(1);
  });

  it('refuse a repository that imports anything but the database', async () => {
    const file = 'src/server/modules/roster/repository.ts';
    expect(await layerErrors(file, "import { isOnRoster } from './service';\nexport const f = isOnRoster;\n")).toHaveLength(1);
    expect(await layerErrors(file, "import { canSeeStudent } from '../../../shared/access';\nexport const f = canSeeStudent;\n")).toHaveLength(1);
    expect(await layerErrors(file, "import { students } from '../../db/schema';\nexport const t = students;\n")).toEqual([]);
  });

  it('refuse a plugin that imports a module', async () => {
    const file = 'src/server/plugins/auth.ts';
    expect(await layerErrors(file, "import { resolveSignIn } from '../modules/auth/service';\nexport const f = resolveSignIn;\n")).toHaveLength(1);
  });

  it('refuse shared code that imports the server or the web', async () => {
    const file = 'src/shared/access.ts';
    expect(await layerErrors(file, "import { notFound } from '../server/http-error';\nexport const f = notFound;\n")).toHaveLength(1);
    expect(await layerErrors(file, "import { ApiError } from '../web/lib/api-client';\nexport const f = ApiError;\n")).toHaveLength(1);
  });

  it('refuse a web feature that imports another feature, and allow shared components', async () => {
    const file = 'src/web/features/contact/pages/contact-page.tsx';
    expect(await layerErrors(file, "import { LoginPage } from '../../auth/pages/login-page';\nexport const P = LoginPage;\n")).toHaveLength(1);
    expect(await layerErrors(file, "import { PageLoader } from '../../../components/page-loader';\nexport const P = PageLoader;\n")).toEqual([]);
  });
});

/**
 * No import cycle between server modules (eslint.module-cycles.js): an import that would close one
 * is refused with the modules around it; the same import the other way round is not.
 * (`npm run lint` holds the modules as they are to it.)
 */
describe('module cycles', () => {
  it('refuse an import that closes a cycle of two modules, and allow it the other way', async () => {
    const code = "import { countRegistersByClass } from '../attendance/service';\nexport const f = countRegistersByClass;\n";
    expect(await cycleErrors('src/server/modules/classes/service.ts', code)).toEqual([
      expect.stringContaining('Import cycle between server modules: classes -> attendance -> classes.'),
    ]);
    const back = "import { lockOpenClass } from '../classes/service';\nexport const f = lockOpenClass;\n";
    expect(await cycleErrors('src/server/modules/attendance/service.ts', back)).toEqual([]);
  });

  it('refuse an import that closes a longer cycle, from any file of a module, type imports included', async () => {
    const code = "import type { AdminClass } from '../../../shared/schemas/classes';\nimport type { listClassesForAdmin } from '../class-admin/service';\nexport type F = typeof listClassesForAdmin | AdminClass;\n";
    expect(await cycleErrors('src/server/modules/subjects/repository.ts', code)).toEqual([
      expect.stringContaining('subjects -> class-admin -> attendance -> subjects'),
    ]);
  });
});
