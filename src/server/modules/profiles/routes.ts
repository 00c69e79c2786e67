import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  ProfileIdParamsSchema,
  ProfileListQuerySchema,
  ProfileListSchema,
  ProfileSchema,
  ProfileUpdateRequestSchema,
  RegistrationRequestSchema,
} from '../../../shared/schemas/profiles';
import { StudentPinParamsSchema } from '../../../shared/schemas/students';
import type { Db } from '../../db/client';
import { requireFaculty, requireSignedIn } from '../../plugins/auth';
import * as service from './service';

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
      schema: {
        tags: ['registrations'],
        operationId: 'createProfile',
        summary: 'Register a student profile (public)',
        body: RegistrationRequestSchema,
        response: { 201: ProfileSchema, 400: ErrorSchema, 403: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema },
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
      schema: {
        tags: ['registrations'],
        operationId: 'updateProfile',
        summary: 'Change a profile (faculty; a student their own)',
        params: ProfileIdParamsSchema,
        body: ProfileUpdateRequestSchema,
        response: {
          200: ProfileSchema,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
          404: ErrorSchema,
          409: ErrorSchema,
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
};
