import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BRANDING_LOGO_PATH, BrandingSchema } from '../../../shared/schemas/branding';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Branding } from '../../config';
import { notFound } from '../../http-error';

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
