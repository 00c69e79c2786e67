import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { DEMO_CONTACT, type Config } from './config';
import type { Database } from './db/client';
import { attendanceRoutes } from './modules/attendance/routes';
import { authRoutes } from './modules/auth/routes';
import { resolveSignIn, SESSION_COOKIE } from './modules/auth/service';
import { contactRoutes } from './modules/contact/routes';
import { eventRoutes } from './modules/events/routes';
import { healthRoutes } from './modules/health/routes';
import { profileRoutes } from './modules/profiles/routes';
import { reportRoutes } from './modules/reports/routes';
import { rosterRoutes } from './modules/roster/routes';
import { studentRoutes } from './modules/students/routes';
import { authPlugin } from './plugins/auth';
import { errorsPlugin, frameworkErrorHandler, nulGuardPlugin } from './plugins/errors';
import { originCheckPlugin } from './plugins/origin-check';
import { databaseRateLimitStore } from './plugins/rate-limit-store';

export interface AppOptions {
  database: Database;
  config: Pick<Config, 'timeZone' | 'trustProxy' | 'webDir' | 'production'> & Partial<Pick<Config, 'contact' | 'formService'>>;
  logger?: FastifyServerOptions['logger'];
}

export const BODY_LIMIT_BYTES = 256 * 1024;

/** Builds the whole portal: the JSON API under /api and the web app around it. */
export async function buildApp({ database, config, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(nulGuardPlugin);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        // Profile pictures are links to other sites; everything else comes from the portal itself.
        'img-src': ["'self'", 'data:', 'https:', 'http:'],
        'upgrade-insecure-requests': config.production ? [] : null,
      },
    },
  });
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, { global: false, store: databaseRateLimitStore(database.db) });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'University attendance portal API',
        description: 'JSON API of the attendance portal. Sign in with POST /api/auth/login; the session is an HttpOnly cookie.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(originCheckPlugin);
  await app.register(authPlugin, {
    cookieName: SESSION_COOKIE,
    authenticate: (token: string) => resolveSignIn(database.db, token),
  });

  await app.register(healthRoutes, { database });
  await app.register(authRoutes, { db: database.db });
  await app.register(profileRoutes, { db: database.db });
  await app.register(studentRoutes, { db: database.db, timeZone: config.timeZone });
  await app.register(rosterRoutes, { db: database.db });
  await app.register(attendanceRoutes, { database, timeZone: config.timeZone });
  await app.register(reportRoutes, { db: database.db, timeZone: config.timeZone });
  await app.register(eventRoutes, { database });
  await app.register(contactRoutes, {
    database,
    contact: config.contact ?? DEMO_CONTACT,
    forwarding: config.formService !== undefined,
  });

  await registerWeb(app, config.webDir);
  return app;
}

async function registerWeb(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = path.join(webDir, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        // Built assets carry a content hash in their names and never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' && !pathname.startsWith('/api/') && pathname !== '/api';
    if (wantsPage && hasWeb) {
      // Client-side routes: the web app decides what to show (and redirects unknown paths).
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${pathname}` });
  });
}
