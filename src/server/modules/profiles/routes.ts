import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  ProfileIdParamsSchema,
  ProfileListSchema,
  ProfileSchema,
  ProfileUpdateRequestSchema,
  RegistrationRequestSchema,
} from '../../../shared/schemas/profiles';
import { StudentPinParamsSchema } from '../../../shared/schemas/students';
import type { Db } from '../../db/client';
import { requireFaculty, requireSignedIn } from '../../plugins/auth';
import * as service from './service';

/** Registration is open to anyone, so it is throttled per address (in each server process). */
export const REGISTRATION_RATE_LIMIT = { max: 10, timeWindow: '1 minute' } as const;

export const profileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/api/registrations',
    {
      config: { rateLimit: REGISTRATION_RATE_LIMIT },
      schema: {
        tags: ['registrations'],
        operationId: 'createProfile',
        summary: 'Register a student profile (public)',
        body: RegistrationRequestSchema,
        response: { 201: ProfileSchema, 400: ErrorSchema, 409: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.register(db, request.body)),
  );

  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/registrations',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['registrations'],
        operationId: 'listProfiles',
        summary: 'Profiles, newest first (a student gets only their own)',
        response: { 200: ProfileListSchema, 401: ErrorSchema },
      },
    },
    async (request) => service.listVisibleProfiles(db, request.user!),
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
      onRequest: requireFaculty,
      schema: {
        tags: ['registrations'],
        operationId: 'updateProfile',
        summary: 'Change a profile (faculty)',
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
    async (request) => service.updateProfileById(db, request.params.id, request.body),
  );

  app.delete(
    '/api/registrations/:id',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['registrations'],
        operationId: 'deleteProfile',
        summary: 'Remove a profile (faculty)',
        params: ProfileIdParamsSchema,
        response: { 204: z.null(), 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      await service.deleteProfileById(db, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
