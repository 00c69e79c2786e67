import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie, { Signer } from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { COLOR_SCHEME_SCRIPT } from '../shared/color-scheme-script';
import { DEFAULT_LIMITS, DEMO_CONTACT, NO_BRANDING, NO_NOTICES, type Config } from './config';
import type { Database, Opening } from './db/client';
import { signingKeys } from './db/secrets';
import { accountRoutes } from './modules/accounts/routes';
import { attendanceRoutes } from './modules/attendance/routes';
import { brandingRoutes } from './modules/branding/routes';
import { correctionRoutes } from './modules/corrections/routes';
import { checkinRoutes, completeScanAtSignIn } from './modules/checkins/routes';
import { auditRoutes } from './modules/audit/routes';
import { backupRoutes } from './modules/backup/routes';
import { classAdminRoutes } from './modules/class-admin/routes';
import { authRoutes } from './modules/auth/routes';
import { DEFAULT_SIGN_IN_LIMITS, endOtherSignIns, SESSION_COOKIE, signInResolver } from './modules/auth/service';
import { contactRoutes } from './modules/contact/routes';
import { addMailOutboxMetrics } from './modules/mail/service';
import { lastBackupAt } from './db/backup-schedule';
import { InProcessJobRunner, type JobRunner } from './jobs/runner';
import { DataVersions, MARKS, REPORTS } from './modules/data-version/service';
import { eventRoutes } from './modules/events/routes';
import { healthRoutes, METRICS_SECURITY_SCHEME } from './modules/health/routes';
import { noticeRoutes } from './modules/notices/routes';
import { personalDataRoutes } from './modules/personal-data/routes';
import { profileRoutes } from './modules/profiles/routes';
import { reportRoutes } from './modules/reports/routes';
import { rosterRoutes } from './modules/roster/routes';
import { rosterImportRoutes } from './modules/roster-import/routes';
import { firestoreImportRoutes } from './modules/firestore-import/routes';
import { alertRoutes } from './modules/alerts/routes';
import { alertContextOf } from './modules/alerts/service';
import { studentRoutes } from './modules/students/routes';
import { subjectRoutes } from './modules/subjects/routes';
import { termRoutes } from './modules/terms/routes';
import { timetableRoutes } from './modules/timetable/routes';
import { AccessLog } from './plugins/access-log';
import { authPlugin, SIGN_IN_GUARDS } from './plugins/auth';
import { compressionPlugin } from './plugins/compression';
import { EventStreams } from './plugins/event-stream';
import { addDatabaseMetrics, addEventLoopMetrics, httpMetricsPlugin, Metrics } from './plugins/metrics';
import { ReportCache } from './plugins/report-cache';
import { requestId, requestIdPlugin } from './plugins/request-id';
import { requestTimeoutPlugin } from './plugins/request-timeout';
import { responseSerializerCompiler } from './plugins/response-serializer';
import { securityHeadersPlugin } from './plugins/security-headers';
import { errorsPlugin, frameworkErrorHandler, nulGuardPlugin } from './plugins/errors';
import { originCheckPlugin } from './plugins/origin-check';
import { databaseRateLimitStore } from './plugins/rate-limit-store';
import { PAGE_COPIES_FOLDER } from './plugins/web-build';
import { webFileCacheControl } from './plugins/web-cache';

export interface AppOptions {
  /**
   * The database, open, or being opened (`beginOpening`): `npm start` builds the whole app, its
   * routes included, while the database starts, and reads from it only once it is open.
   */
  database: Database | Opening;
  config: Pick<Config, 'timeZone' | 'trustProxy' | 'webDir' | 'production'> &
    Partial<Pick<Config, 'contact' | 'formService' | 'limits' | 'secret' | 'publicUrl' | 'smtp' | 'branding' | 'requireTotp' | 'oidc' | 'passwordLogin' | 'metricsToken' | 'notices' | 'alertThreshold' | 'campusNetworks'>>;
  logger?: FastifyServerOptions['logger'];
  /** The process's metrics, when the caller adds families of its own; else the app makes them. */
  metrics?: Metrics;
  /**
   * The background jobs' runner (main.ts makes and starts it: src/server/background-jobs.ts), which
   * routes reach as `app.jobs` to queue a task. Without one (tests), the app has a runner of no
   * task, never started: queuing a task there fails.
   */
  jobs?: JobRunner;
  /** The clock self check-in's codes are made and checked by: the system's, unless a test sets its own. */
  clock?: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Queues background jobs: `app.jobs.add(task, payload, { jobKey, runAt })`. */
    jobs: JobRunner;
  }
}

export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * A request's head and body must arrive within this, and its answer begin within it (503 after:
 * `requestTimeoutPlugin`). An answer that has begun, a stream or the live updates, is not cut.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The OpenAPI security scheme of the sign-in cookie. */
const SESSION_SECURITY_SCHEME = 'sessionCookie';

/** The operations' tags, in the order the documentation shows them. */
const API_TAGS = [
  { name: 'auth', description: 'Signing in and out, and who is signed in' },
  { name: 'classes', description: 'The classes, their rosters and their weekly timetables' },
  { name: 'subjects', description: 'The subjects lectures are taken for' },
  { name: 'branding', description: 'The university\'s name, colour and logo' },
  { name: 'notices', description: 'The privacy and accessibility notices' },
  { name: 'corrections', description: 'Students\' requests to correct a mark, and faculty\'s decisions' },
  { name: 'checkins', description: 'Self check-in: faculty open a check-in for a register, students scan its changing code' },
  { name: 'attendance', description: "Taking a class's register for a date (and a lecture), and its history of changes" },
  { name: 'students', description: "A student's attendance record and its PDF report" },
  { name: 'registrations', description: 'Student profiles: registering, finding, changing and removing them' },
  { name: 'reports', description: 'Attendance totals and per-student summaries for faculty' },
  { name: 'events', description: 'Live updates: a server-sent event each time a register is saved' },
  { name: 'contact', description: 'The contact page: its details, the form, and the faculty inbox' },
  { name: 'notifications', description: "Alerts in the account's bell, how the account gets them by e-mail, and the e-mails' one-click unsubscribe" },
  { name: 'admin', description: 'Administration: accounts, classes, the roster, terms, subjects, timetables and the audit trail (admins only)' },
  { name: 'health', description: 'Liveness, readiness and metrics of this server process' },
];

/**
 * Each operation's security, derived from its route's guard so that no route can forget it: the
 * sign-in cookie when one of the route's `onRequest` hooks is a sign-in guard, none (`[]`) otherwise.
 */
function routeSecurity(route: Pick<RouteOptions, 'onRequest'>): Array<Record<string, string[]>> {
  const hooks: unknown[] = route.onRequest === undefined ? [] : [route.onRequest].flat();
  return hooks.some((hook) => SIGN_IN_GUARDS.has(hook)) ? [{ [SESSION_SECURITY_SCHEME]: [] }] : [];
}

const openApiTransform: SwaggerTransform = (input) => {
  const transformed = jsonSchemaTransform(input);
  // A route that is guarded otherwise than by a sign-in (the metrics' token) names its own security.
  const own = (input.route.schema as { security?: Array<Record<string, string[]>> } | undefined)?.security;
  return { ...transformed, schema: { ...transformed.schema, security: own ?? routeSecurity(input.route) } };
};

/** Builds the whole portal: the JSON API under /api and the web app around it. */
export async function buildApp({ database: given, config, logger = false, metrics = new Metrics(), jobs, clock }: AppOptions): Promise<FastifyInstance> {
  // Being opened: its failure is reported where it is awaited, below, once the rest is built.
  const { database, opened } = 'opened' in given ? given : { database: given, opened: Promise.resolve(given) };
  const app = Fastify({
    logger,
    // One line per request instead of two.
    logController: new AccessLog(),
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors: frameworkErrorHandler,
    genReqId: requestId,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // While the server stops, a request on an open connection is still answered (with
    // Connection: close), readiness included, which then says why it is not ready.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('jobs', jobs ?? new InProcessJobRunner({ database, timeZone: config.timeZone, tasks: {}, schedules: [], log: app.log }));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  await app.register(requestIdPlugin);
  await app.register(requestTimeoutPlugin, { timeoutMs: REQUEST_TIMEOUT_MS });
  await app.register(httpMetricsPlugin, { metrics });
  addEventLoopMetrics(metrics);
  addDatabaseMetrics(metrics, database);
  await app.register(errorsPlugin);
  await app.register(nulGuardPlugin);
  // Before every route: compression applies to the routes registered after it.
  await app.register(compressionPlugin);
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        // Profile pictures are links to other sites; everything else comes from the portal itself.
        'img-src': ["'self'", 'data:', 'https:', 'http:'],
        // The one inline script: it picks light or dark before the page paints.
        'script-src': ["'self'", `'sha256-${createHash('sha256').update(COLOR_SCHEME_SCRIPT).digest('base64')}'`],
        'upgrade-insecure-requests': config.production ? [] : null,
      },
    },
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'University attendance portal API',
        description: 'JSON API of the attendance portal. Sign in with POST /api/auth/login; the session is an HttpOnly cookie.',
        version: '1.0.0',
        // The portal has no licence of its own (package.json is private); UNLICENSED says so, as npm does.
        license: { name: 'UNLICENSED' },
      },
      // Relative: the API is served by the same origin as this document.
      servers: [{ url: '/', description: 'The portal that serves this document' }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          [SESSION_SECURITY_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The HttpOnly session cookie set by POST /api/auth/login (signIn).',
          },
          [METRICS_SECURITY_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'PORTAL_METRICS_TOKEN, for GET /metrics from another machine (a client on this one needs none).',
          },
        },
      },
    },
    transform: openApiTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Swagger UI sets some styles inline as it draws the page: allowed there, and only there.
    transformStaticCSP: (header) => header.replace(/style-src ([^;]*);/, "style-src $1 'unsafe-inline';"),
  });
  await app.register(originCheckPlugin);
  // After the documentation, which lists the routes registered after it (the files are hidden).
  await registerWeb(app, config.webDir);

  // The cookies' key is read from the database once it is open (below).
  const cookieSigner = new SignerOfLaterKey();
  await app.register(fastifyCookie, { secret: cookieSigner });
  await app.register(fastifyRateLimit, { global: false, store: databaseRateLimitStore(database.db) });
  // What this process knows of the data versions: cached reports and sign-ins (decision 28).
  const versions = new DataVersions(database);
  app.addHook('onClose', () => versions.close());
  await app.register(authPlugin, {
    cookieName: SESSION_COOKIE,
    authenticate: signInResolver(database.db, versions),
  });

  await app.register(healthRoutes, { database, metrics, metricsToken: config.metricsToken });
  const limits = config.limits ?? DEFAULT_LIMITS;
  // The server-sent event streams of the live updates and of the check-ins' lists, counted together.
  const streams = new EventStreams({ metrics });
  const checkins = {
    database,
    streams,
    timeZone: config.timeZone,
    campusNetworks: config.campusNetworks ?? [],
    publicUrl: config.publicUrl,
    ...(clock ? { clock } : {}),
  };
  await app.register(authRoutes, {
    db: database.db,
    signInLimits: { ...DEFAULT_SIGN_IN_LIMITS, perAddress: limits.signInPerAddress },
    requireTotp: config.requireTotp ?? 'off',
    oidc: config.oidc,
    passwordLogin: config.passwordLogin ?? true,
    publicUrl: config.publicUrl,
    totpIssuer: config.branding?.name ?? 'University Portal',
    // A check-in scanned while signed out completes as the student signs in (decision 45).
    onSignedIn: completeScanAtSignIn(checkins),
  });
  await app.register(profileRoutes, { db: database.db, registrationsPer10Minutes: limits.registrations });
  // Reports, records and class cards are answered from memory, or as 304, while the reports' data
  // version is unchanged (decision 14); each of the three modules keeps its own recent answers.
  const cacheOutcomes = metrics.addCounter({
    name: 'report_cache_requests_total',
    help: 'Reports, records and class cards asked for, by cache and outcome: hit (from memory or 304) or miss (computed)',
    labelNames: ['cache', 'outcome'],
  });
  // Every answer depends on the reports' version and the marks' (decision 52); a student's record
  // names its class's marks instead (students/routes.ts).
  const marksVersion = async () => {
    const [reports, marks] = await Promise.all([versions.current(REPORTS), versions.current(MARKS)]);
    return `${reports}.${marks}`;
  };
  const reportCache = (cache: string) => new ReportCache(marksVersion, config.timeZone, undefined, (outcome) => cacheOutcomes.inc({ cache, outcome }));
  await app.register(studentRoutes, { db: database.db, versions, cache: reportCache('students'), timeZone: config.timeZone, university: config.branding?.name });
  await app.register(rosterRoutes, { db: database.db });
  await app.register(rosterImportRoutes, { db: database.db });
  await app.register(firestoreImportRoutes, { database, timeZone: config.timeZone });
  await app.register(attendanceRoutes, { database, versions, cache: reportCache('attendance'), timeZone: config.timeZone });
  await app.register(correctionRoutes, { database, timeZone: config.timeZone });
  await app.register(checkinRoutes, checkins);
  await app.register(reportRoutes, { db: database.db, versions, cache: reportCache('reports'), timeZone: config.timeZone });
  await app.register(eventRoutes, { database, streams });
  await app.register(auditRoutes, { db: database.db, timeZone: config.timeZone });
  await app.register(backupRoutes, { database });
  await app.register(personalDataRoutes, { db: database.db });
  await app.register(classAdminRoutes, { db: database.db });
  await app.register(termRoutes, { db: database.db, timeZone: config.timeZone });
  await app.register(subjectRoutes, { db: database.db });
  await app.register(timetableRoutes, { db: database.db });
  await app.register(accountRoutes, { db: database.db, endSignIns: endOtherSignIns, publicUrl: config.publicUrl, smtp: config.smtp });
  await app.register(alertRoutes, { database, context: alertContextOf(database.db, config) });
  addMailOutboxMetrics(metrics, database.db);
  metrics.addGauge({
    name: 'backup_last_age_seconds',
    help: 'Seconds since the newest scheduled backup this process knows of was written (NaN before the first)',
    read: () => {
      const at = lastBackupAt();
      return at ? Math.max(0, (Date.now() - at.getTime()) / 1000) : Number.NaN;
    },
  });
  await app.register(contactRoutes, {
    database,
    contact: config.contact ?? DEMO_CONTACT,
    forwarding: config.formService !== undefined,
    messagesPer10Minutes: limits.contact,
    metrics,
  });

  await app.register(brandingRoutes, { branding: config.branding ?? NO_BRANDING });
  await app.register(noticeRoutes, { notices: config.notices ?? NO_NOTICES });

  // Ready (each route's hooks put together) while the database opens; what needs the database
  // itself once it is open, before the app answers anything.
  await Promise.all([app.ready(), opened]);
  const [cookieKeys] = await Promise.all([signingKeys(database.db, 'cookie', config.secret), versions.start()]);
  cookieSigner.useKeys(cookieKeys);
  return app;
}

/**
 * The cookie plugin's signer, given its keys once the database is open: the plugin, and the routes
 * after it, are registered while the database starts. Signing before that is a mistake. The first
 * key signs; a cookie signed with any of them is valid (`renew` when not the first).
 */
class SignerOfLaterKey {
  #signer: Signer | undefined;

  useKeys(keys: string[]): void {
    this.#signer = new Signer(keys, 'sha256');
  }

  #current(): Signer {
    if (!this.#signer) throw new Error("The cookies' key is not read yet: the database is not open");
    return this.#signer;
  }

  sign(value: string): string {
    return this.#current().sign(value);
  }

  unsign(value: string): ReturnType<Signer['unsign']> {
    return this.#current().unsign(value);
  }
}

/** The build's compressed copies of a file (`.br`, `.gz`). */
const PRECOMPRESSED_COPY = /\.(?:br|gz)$/;

/** A request that carries a sign-in (valid or not: the page checks it). */
const SESSION_COOKIE_SENT = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

/** The pages (first segments) the build wrote a copy of index.html for. */
function pageCopiesIn(webDir: string): Set<string> {
  try {
    return new Set(
      readdirSync(path.join(webDir, PAGE_COPIES_FOLDER))
        .filter((name) => name.endsWith('.html'))
        .map((name) => name.slice(0, -'.html'.length)),
    );
  } catch {
    // A build from before the copies: every page gets index.html.
    return new Set();
  }
}

async function registerWeb(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = path.join(webDir, 'index.html');
  const hasWeb = existsSync(indexFile);
  const pageCopies = hasWeb ? pageCopiesIn(webDir) : new Set<string>();
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      // One route for every file, each looked up when asked for: listing the build's files and
      // making a route of each took some 0.1 s of a start. A path that is no file goes to the
      // not-found handler below, as a path without a route does.
      wildcard: true,
      index: false,
      // The build writes a .br and a .gz beside each text file of 1 KB or more: sent as they are
      // when the client accepts them (with Vary: Accept-Encoding), so the compression plugin
      // leaves them alone; other files go through it.
      preCompressed: true,
      // Never sent by their own names: the build's stamp (a dot file), the compressed copies (only
      // ever in place of their original) and the pages' copies of index.html (only in its place).
      // Nor a folder (`/`, `/assets/`): the plugin would refuse it with 403 when the client accepts
      // no compression (with one, it passes it on); the not-found handler below answers it, with
      // the page for `/`, whatever Accept-Encoding says.
      allowedPath: (pathname) =>
        !pathname.endsWith('/') && !PRECOMPRESSED_COPY.test(pathname) && !pathname.startsWith(`/${PAGE_COPIES_FOLDER}/`),
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders(res, filePath) {
        res.header('cache-control', webFileCacheControl(webDir, filePath));
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // HEAD as GET: the same headers, no body.
    // A missing file of the build (an old chunk, a map that was never written) is a 404, not the page.
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !pathname.startsWith('/assets/');
    if (wantsPage && hasWeb) {
      // Client-side routes: the web app decides what to show (and redirects unknown paths).
      // index.html is no-cache (setHeaders above). A browser with a sign-in gets the page's copy,
      // which names the page's files so that they load beside the entry (web-build.ts); without
      // one, the page would send it to the sign-in page, and those files would only slow it.
      const first = pathname.split('/')[1] ?? '';
      if (!pageCopies.has(first)) return reply.sendFile('index.html');
      // Which of the two depends on the Cookie header: a cache between must not hand one for the other.
      reply.header('vary', 'cookie');
      const copy = SESSION_COOKIE_SENT.test(request.headers.cookie ?? '');
      return reply.sendFile(copy ? `${PAGE_COPIES_FOLDER}/${first}.html` : 'index.html');
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${pathname}` });
  });
}
