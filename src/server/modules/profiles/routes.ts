import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  ProfileIdParamsSchema,
  ProfileListQuerySchema,
  ProfileListSchema,
  ProfilePhotoQuerySchema,
  ProfileSchema,
  ProfileUpdateRequestSchema,
  RegistrationRequestSchema,
} from '../../../shared/schemas/profiles';
import { StudentPinParamsSchema } from '../../../shared/schemas/students';
import type { Db } from '../../db/client';
import { requireFaculty, requireSignedIn } from '../../plugins/auth';
import * as service from './service';

/**
 * The registration and edit bodies may carry a photo of up to 2 MB as base64 (a third larger); the
 * limit leaves room for that and the text fields, so that a photo a little too large gets the
 * photo's own message rather than a bare 413.
 */
export const PROFILE_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

const binary = z.instanceof(Buffer).meta({ type: 'string', format: 'binary' });

export interface ProfileRoutesOptions {
  db: Db;
  /** Registration is open to anyone, so it is limited per address; a lab behind one address must get through. */
  registrationsPer10Minutes: number;
}

export const profileRoutes: FastifyPluginAsyncZod<ProfileRoutesOptions> = async (app, { db, registrationsPer10Minutes }) => {
  app.post(
    '/api/registrations',
    {
      config: { rateLimit: { max: registrationsPer10Minutes, timeWindow: '10 minutes' } },
      bodyLimit: PROFILE_BODY_LIMIT_BYTES,
      schema: {
        tags: ['registrations'],
        operationId: 'createProfile',
        summary: 'Register a student profile (public); `photo` is an optional PNG, JPEG or WebP data URL of at most 2 MB',
        body: RegistrationRequestSchema,
        response: { 201: ProfileSchema, 400: ErrorSchema, 403: ErrorSchema, 409: ErrorSchema, 413: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.register(db, { viewer: request.user, profile: request.body })),
  );

  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/registrations',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['registrations'],
        operationId: 'listProfiles',
        summary: 'Approved profiles, newest first; staff may ask for the pending ones (a student gets only their own)',
        querystring: ProfileListQuerySchema,
        response: { 200: ProfileListSchema, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => service.listVisibleProfiles(db, request.user!, request.query.status),
  );

  app.post(
    '/api/registrations/:id/approve',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['registrations'],
        operationId: 'approveProfile',
        summary: 'Approve a pending profile, so that it shows (faculty); DELETE rejects it',
        params: ProfileIdParamsSchema,
        response: { 200: ProfileSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => service.approveProfileById(db, request.user!, request.params.id),
  );

  app.get(
    '/api/registrations/by-pin/:pin',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['registrations'],
        operationId: 'getProfileByPin',
        summary: 'The profile with this PIN (a student: only their own)',
        params: StudentPinParamsSchema,
        response: { 200: ProfileSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => service.getProfileByPin(db, request.user!, request.params.pin),
  );

  app.patch(
    '/api/registrations/:id',
    {
      onRequest: requireSignedIn,
      bodyLimit: PROFILE_BODY_LIMIT_BYTES,
      schema: {
        tags: ['registrations'],
        operationId: 'updateProfile',
        summary: 'Change a profile (faculty; a student their own); `photo` replaces the photo, null removes it',
        params: ProfileIdParamsSchema,
        body: ProfileUpdateRequestSchema,
        response: {
          200: ProfileSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
          413: ErrorSchema,
        },
      },
    },
    async (request) => service.updateProfileById(db, request.user!, request.params.id, request.body),
  );

  app.delete(
    '/api/registrations/:id',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['registrations'],
        operationId: 'deleteProfile',
        summary: 'Remove a profile, or reject a pending one (faculty; a student their own)',
        params: ProfileIdParamsSchema,
        response: { 204: z.null(), 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      await service.deleteProfileById(db, request.user!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/registrations/:id/photo',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['registrations'],
        operationId: 'getProfilePhoto',
        summary: "A profile's uploaded photo, re-encoded as WebP (whoever may see the profile); 404 when there is none",
        params: ProfileIdParamsSchema,
        querystring: ProfilePhotoQuerySchema,
        response: {
          200: { description: 'The photo', content: { 'image/webp': { schema: binary } } },
          304: z.null().describe('The photo the browser holds is still the one'),
          400: ErrorSchema,
          401: ErrorSchema,
          404: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const photo = await service.getPhoto(db, request.user!, request.params.id);
      const etag = `"${photo.version}"`;
      // The address carries the version, so a browser may keep the photo it names; it is private to the viewer.
      const current = request.query.v === photo.version;
      reply.header('cache-control', current ? 'private, max-age=31536000, immutable' : 'private, no-cache').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send(null);
      return reply.type(photo.contentType).send(photo.data);
    },
  );
};
