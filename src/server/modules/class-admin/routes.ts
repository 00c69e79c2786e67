import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminClassListSchema,
  AdminClassParamsSchema,
  AdminClassSchema,
  CreateClassSchema,
  UpdateClassSchema,
} from '../../../shared/schemas/classes';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../plugins/auth';
import * as service from './service';

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

export const classAdminRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/admin/classes',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'listAdminClasses',
        summary: 'Every class in order, archived ones too, with roster and register counts (admins)',
        response: { 200: AdminClassListSchema, ...refusals },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return service.listClassesForAdmin(db);
    },
  );

  app.post(
    '/api/admin/classes',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'createClass',
        summary: 'Add a class at the end of the order (admins)',
        description: '409 when another class has the name, ignoring case.',
        body: CreateClassSchema,
        response: { 201: AdminClassSchema, ...refusals, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      const created = await service.createClass(db, request.user!, request.body);
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/api/admin/classes/:class',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'updateClass',
        summary: 'Rename, move, archive or restore a class (admins)',
        description:
          'A rename is a correction: the new name replaces the old one everywhere, past registers, marks and the ' +
          'roster included. position moves the class to that place (from 1; past the end: last). An archived class ' +
          'leaves the dashboard and takes no new registers or students; its history stays. 404 for an unknown ' +
          'class, 409 when another class has the new name.',
        params: AdminClassParamsSchema,
        body: UpdateClassSchema,
        response: { 200: AdminClassSchema, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) => service.updateClass(db, request.user!, request.params.class, request.body),
  );
};
