import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminUserSchema,
  CreatedUserSchema,
  CreateUserSchema,
  SetPasswordLinkSchema,
  UpdateUserSchema,
  UserParamsSchema,
  UsersPageSchema,
  UsersQuerySchema,
} from '../../../shared/schemas/admin-users';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { SmtpSettings } from '../../config';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../plugins/auth';
import type { LinkDelivery } from './set-password-mail';
import * as service from './service';

export interface AccountRoutesOptions {
  db: Db;
  /** Ends an account's sign-in sessions (the auth module's, handed over by the app). */
  endSignIns: service.EndSignIns;
  /** PORTAL_PUBLIC_URL: the address links are built on; unset: the request's own, with a warning. */
  publicUrl?: string | undefined;
  /** PORTAL_SMTP_URL: links are also e-mailed (through the mail outbox) when set. */
  smtp?: SmtpSettings | undefined;
}

const refusals = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { db, endSignIns, publicUrl, smtp }) => {
  function delivery(request: FastifyRequest): LinkDelivery {
    let baseUrl = publicUrl;
    if (!baseUrl) {
      baseUrl = `${request.protocol}://${request.host}`;
      request.log.warn(`PORTAL_PUBLIC_URL is not set: the set-password link is built on this request's address, ${baseUrl}`);
    }
    return { baseUrl, email: smtp !== undefined };
  }

  const admin = (request: FastifyRequest) => request.user!;

  app.get(
    '/api/admin/users',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'listUsers',
        summary: 'Accounts, a page at a time, by e-mail (admins)',
        description: 'q finds part of an e-mail, a name or a PIN in any case; total counts every match.',
        querystring: UsersQuerySchema,
        response: { 200: UsersPageSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return service.listAccounts(db, request.query);
    },
  );

  app.post(
    '/api/admin/users',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'createUser',
        summary: 'Add an account without a password, and its one-time set-password link (admins)',
        description:
          "A student's PIN must be on the roster. The link is valid 72 hours and shown only in this answer " +
          '(also e-mailed when the portal sends e-mail: queued with the account, sent by the mail outbox). 409 when the e-mail has an account.',
        body: CreateUserSchema,
        response: { 201: CreatedUserSchema, ...refusals, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const created = await service.createAccount(db, admin(request), request.body, delivery(request));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/api/admin/users/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'updateUser',
        summary: "Change an account's name or role, or disable or enable it (admins)",
        description:
          'Disabling ends the sign-in sessions at once; a role change ends the other sessions. ' +
          '409 for the last enabled admin, who cannot be disabled or demoted.',
        params: UserParamsSchema,
        body: UpdateUserSchema,
        response: { 200: AdminUserSchema, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request) =>
      service.updateAccount(db, { admin: admin(request), sessionId: request.sessionId ?? undefined, endSignIns }, request.params.id, request.body),
  );

  app.post(
    '/api/admin/users/:id/reset-password',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'resetUserPassword',
        summary: 'A new one-time set-password link for an account, cancelling its previous link (admins)',
        description: '409 for a disabled account: enable it first.',
        params: UserParamsSchema,
        response: { 200: SetPasswordLinkSchema, ...refusals, 404: ErrorSchema, 409: ErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return service.resetAccountPassword(db, admin(request), request.params.id, delivery(request));
    },
  );
};
