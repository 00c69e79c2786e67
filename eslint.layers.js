/**
 * The layer rules, checked by eslint-plugin-boundaries on every import:
 *
 * - a module's routes call only their own service; a service calls its own repository and other
 *   modules' services, never their repositories; a repository imports only the database;
 * - no import cycle between modules (eslint.module-cycles.js): what combines several modules sits
 *   above them, in a module of its own;
 * - plugins import no module; web features import no other feature;
 * - src/shared imports nothing of ours but itself.
 *
 * Tests are exempt: they may set up data through any layer. See docs/architecture.md.
 */
import boundaries from 'eslint-plugin-boundaries';
import { noModuleCycle } from './eslint.module-cycles.js';

/** Folders, each a layer; the first pattern that matches a file's folder wins. */
const elements = [
  { type: 'shared', pattern: 'src/shared' },
  { type: 'module', pattern: 'src/server/modules/*', capture: ['module'] },
  { type: 'plugins', pattern: 'src/server/plugins' },
  { type: 'database', pattern: 'src/server/db' },
  { type: 'jobs', pattern: 'src/server/jobs' },
  // The server's words in each language (e-mails, notices), beneath the modules that write them.
  { type: 'server-i18n', pattern: 'src/server/i18n' },
  { type: 'composition', pattern: 'src/server/cli' },
  { type: 'composition', pattern: 'src/server/seed' },
  { type: 'server-test', pattern: 'src/server/test' },
  // app.ts and main.ts put the server together; config.ts, project-root.ts and the error classes
  // serve every layer.
  { type: 'server', pattern: 'src/server' },
  { type: 'web-app', pattern: 'src/web/app' },
  { type: 'web-feature', pattern: 'src/web/features/*', capture: ['feature'] },
  { type: 'web-components', pattern: 'src/web/components' },
  { type: 'web-lib', pattern: 'src/web/lib' },
  // The languages: the runtime of the messages and their catalogs, beneath every other part of the web.
  { type: 'web-i18n', pattern: 'src/web/i18n' },
  { type: 'web-i18n', pattern: 'src/web/locales' },
  { type: 'web-test', pattern: 'src/web/test' },
  { type: 'web', pattern: 'src/web' },
];

// The server's files that every layer may use: settings, errors, and where the project is.
const COMMON = '{config,http-error,input-error,project-root}.ts';

const el = (selector) => ({ to: { element: selector } });
/** The slots of scheduled work (src/server/jobs/slots.ts): claimed by the work itself, wherever it lives. */
const SLOTS = { type: 'jobs', fileInternalPath: 'slots.ts' };
const types = (...names) => names.map((type) => el({ type }));
const sameModule = { module: '{{ from.element.captured.module }}' };
/** A module's file of one kind: `routes.ts`, `service.ts` or `repository.ts`. */
const moduleFile = (file) => ({ type: 'module', fileInternalPath: file });
/**
 * A module's service layer: `service.ts` and the files it is split into along its seams (say
 * sign-in sessions beside sign-in), every file but `routes.ts` and `repository.ts`. Other modules
 * reach it through `service.ts` alone.
 */
const serviceLayer = moduleFile('!(routes|repository).ts');

const policies = [
  { from: { element: { type: 'shared' } }, allow: types('shared') },

  // Modules: their own files, the database, plugins' guards, the common server files, shared.
  {
    from: { element: { type: 'module' } },
    allow: [
      el({ type: 'module', captured: sameModule }),
      ...types('shared', 'database', 'plugins', 'server-i18n'),
      el({ type: 'server', fileInternalPath: COMMON }),
      // A scheduled task claims its slot in the transaction of its own writes.
      el(SLOTS),
    ],
  },
  // A service (and only a service) calls other modules' services.
  { from: { element: serviceLayer }, allow: [el(moduleFile('service.ts'))] },
  // Routes speak HTTP and call their own service: never a repository.
  { from: { element: moduleFile('routes.ts') }, disallow: [el(moduleFile('repository.ts'))] },
  // A repository is SQL over the database and nothing else.
  {
    from: { element: moduleFile('repository.ts') },
    disallow: [el({ type: 'module', fileInternalPath: '!(repository.ts)' }), ...types('shared', 'plugins', 'server')],
  },

  // Plugins may use one another's helpers (the reports' cache compresses as the compression plugin does).
  { from: { element: { type: 'plugins' } }, allow: [...types('shared', 'database', 'plugins'), el({ type: 'server', fileInternalPath: COMMON })] },
  // The database's scheduled work (backups) claims its slots as the modules' does.
  { from: { element: { type: 'database' } }, allow: [...types('shared', 'database'), el({ type: 'server', fileInternalPath: COMMON }), el(SLOTS)] },
  // The job runner: server infrastructure over the database, which the server's start wires up.
  { from: { element: { type: 'jobs' } }, allow: [...types('shared', 'database', 'jobs'), el({ type: 'server', fileInternalPath: COMMON })] },
  // The messages know the languages and nothing else of ours.
  { from: { element: { type: 'server-i18n' } }, allow: types('shared', 'server-i18n') },

  // What puts the server together (app, main, the CLI, demo data) may use every layer but a repository.
  {
    from: { element: { types: '{server,composition}' } },
    allow: types('shared', 'database', 'jobs', 'plugins', 'module', 'server', 'composition', 'server-i18n'),
  },
  { from: { element: { types: '{server,composition}' } }, disallow: [el(moduleFile('repository.ts'))] },
  { from: { element: { type: 'server-test' } }, allow: types('shared', 'database', 'jobs', 'plugins', 'module', 'server', 'composition', 'server-test', 'server-i18n') },

  { from: { element: { type: 'web' } }, allow: types('web', 'web-app', 'web-lib', 'web-components', 'web-i18n', 'shared') },
  { from: { element: { type: 'web-app' } }, allow: types('web-app', 'web-feature', 'web-components', 'web-lib', 'web-i18n', 'shared') },
  {
    from: { element: { type: 'web-feature' } },
    allow: [el({ type: 'web-feature', captured: { feature: '{{ from.element.captured.feature }}' } }), ...types('web-components', 'web-lib', 'web-i18n', 'shared')],
  },
  { from: { element: { type: 'web-components' } }, allow: types('web-components', 'web-lib', 'web-i18n', 'shared') },
  { from: { element: { type: 'web-lib' } }, allow: types('web-lib', 'web-i18n', 'shared') },
  { from: { element: { type: 'web-i18n' } }, allow: types('web-i18n', 'shared') },
  // The web's test helpers start the real server in-process (src/server/test).
  { from: { element: { type: 'web-test' } }, allow: types('web-app', 'web-feature', 'web-components', 'web-lib', 'web-i18n', 'shared', 'web-test', 'server-test') },
];

export const layerRules = {
  files: ['src/**/*.{ts,tsx}'],
  ignores: ['src/**/*.test.{ts,tsx}'],
  plugins: { boundaries, portal: { rules: { 'no-module-cycle': noModuleCycle } } },
  settings: {
    'boundaries/elements': elements,
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
  },
  rules: {
    'boundaries/dependencies': ['error', { default: 'disallow', checkInternals: true, policies }],
    // Every file of ours belongs to a layer.
    'boundaries/no-unknown-files': 'error',
    // Modules import one another one way only: eslint.module-cycles.js.
    'portal/no-module-cycle': 'error',
  },
};
