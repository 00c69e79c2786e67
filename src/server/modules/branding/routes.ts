import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BRANDING_LOGO_PATH, BrandingSchema } from '../../../shared/schemas/branding';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Branding } from '../../config';
import { notFound } from '../../http-error';

/** Where the manifest is: index.html links it. */
export const WEB_MANIFEST_PATH = '/manifest.webmanifest';
/** The name of the portal without a configured university name, as index.html's title. */
const DEFAULT_APP_NAME = 'University Portal';
/** The favicon's blue, the theme's default. */
const DEFAULT_THEME_COLOR = '#1c7ed6';
/** Made from favicon.svg (src/web/public/icons). */
const WEB_APP_ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
];

const WebManifestSchema = z.object({
  name: z.string(),
  short_name: z.string(),
  start_url: z.string(),
  scope: z.string(),
  display: z.literal('standalone'),
  theme_color: z.string(),
  background_color: z.string(),
  icons: z.array(z.object({ src: z.string(), sizes: z.string(), type: z.string(), purpose: z.string() })),
});

/**
 * The university's name, colour and logo (decision 16), from the configuration: public, as the
 * sign-in page shows them. The logo is read once, at the first request, and kept.
 */
export const brandingRoutes: FastifyPluginAsyncZod<{ branding: Branding }> = async (app, { branding }) => {
  app.get(
    '/api/branding',
    {
      schema: {
        tags: ['branding'],
        operationId: 'getBranding',
        summary: "The university's name, primary colour and logo address (null where not configured)",
        // 400 like every route: a malformed address or a NUL character in the query.
        response: { 200: BrandingSchema, 400: ErrorSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { name: branding.name ?? null, color: branding.color ?? null, logoUrl: branding.logoFile ? BRANDING_LOGO_PATH : null };
    },
  );

  app.get(
    WEB_MANIFEST_PATH,
    {
      schema: {
        tags: ['branding'],
        operationId: 'getWebManifest',
        summary: "The web app's manifest (installing the portal on a phone), with the university's name and colour",
        response: { 200: WebManifestSchema, 400: ErrorSchema },
      },
    },
    async (_request, reply) => {
      // Served here rather than as a file of the build: the name and colour are the configuration's.
      reply.type('application/manifest+json').header('cache-control', 'public, max-age=300');
      const name = branding.name ? `${branding.name} Attendance` : DEFAULT_APP_NAME;
      const color = branding.color ?? DEFAULT_THEME_COLOR;
      return {
        name,
        short_name: branding.name ?? 'Attendance',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone' as const,
        theme_color: color,
        background_color: '#ffffff',
        icons: WEB_APP_ICONS,
      };
    },
  );

  let logo: Promise<Buffer> | undefined;
  app.get(
    BRANDING_LOGO_PATH,
    {
      schema: {
        tags: ['branding'],
        operationId: 'getBrandingLogo',
        summary: "The university's logo (PNG or JPEG), as PORTAL_LOGO names it; 404 when none is configured",
        response: {
          // A Buffer is sent as it is; the schema only documents it. Errors stay JSON.
          200: {
            description: 'The logo',
            content: {
              'image/png': { schema: z.instanceof(Buffer).meta({ type: 'string', format: 'binary' }) },
              'image/jpeg': { schema: z.instanceof(Buffer).meta({ type: 'string', format: 'binary' }) },
            },
          },
          400: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (_request, reply) => {
      const file = branding.logoFile;
      if (!file) throw notFound('No logo is configured');
      logo ??= readFile(file);
      const bytes = await logo;
      return reply
        .type(/\.png$/i.test(file) ? 'image/png' : 'image/jpeg')
        .header('cache-control', 'public, max-age=3600')
        .send(bytes);
    },
  );
};
