import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  EraseStudentSchema,
  ErasureSchema,
  personalDataFilename,
  PersonalDataSchema,
  type PersonalData,
} from '../../../shared/schemas/personal-data';
import { StudentPinParamsSchema } from '../../../shared/schemas/students';
import type { Db } from '../../db/client';
import { forbidden } from '../../http-error';
import { requireAdmin, requireSignedIn } from '../../plugins/auth';
import * as service from './service';

const download = {
  description: 'The JSON document, sent as a download (personal-data-<PIN>.json)',
  content: { 'application/json': { schema: PersonalDataSchema } },
};

function asDownload(reply: FastifyReply, data: PersonalData): PersonalData {
  reply
    .header('content-disposition', `attachment; filename="${personalDataFilename(data.pin)}"`)
    .header('cache-control', 'private, no-store');
  return data;
}

export const personalDataRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/me/export',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['students'],
        operationId: 'exportMyData',
        summary: 'Everything the portal holds about the signed-in student, as one JSON download',
        description:
          'The roster row, the account (never its password hash, TOTP secret, recovery codes or sign-in tokens), the profile with ' +
          'its photo as a data URL, every mark with its changes, the correction requests, the contact messages sent from the ' +
          "student's e-mail and the audit entries that name the student. Students only.",
        response: { 200: download, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      if (user.role !== 'student') throw forbidden('Only a student can download their own data here');
      return asDownload(reply, await service.exportOwnData(db, user));
    },
  );

  app.get(
    '/api/admin/students/:pin/export',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'exportStudentData',
        summary: 'Everything the portal holds about one student, as one JSON download (admins; recorded in the audit trail)',
        description: 'The same document as /api/me/export. 404 when nothing is held about the PIN.',
        params: StudentPinParamsSchema,
        response: { 200: download, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => asDownload(reply, await service.exportStudentData(db, request.user!, request.params.pin)),
  );

  app.post(
    '/api/admin/students/:pin/erase',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'eraseStudent',
        summary: "Erases a student's personal data (admins; confirm is the PIN typed again)",
        description:
          'Deletes the account and its sessions, the profile and photo, the correction requests and the contact messages sent from ' +
          "the student's e-mail, and replaces the name, PIN and e-mail in the roster, the marks, their history and the audit trail " +
          'by a pseudonym (ERASED- and 8 hex digits), so that registers, counts and reports stay as they were. Recorded as ' +
          'student.erase, without the erased data. 400 when confirm is not the PIN; 404 when nothing is held about it.',
        params: StudentPinParamsSchema,
        body: EraseStudentSchema,
        response: { 200: ErasureSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => {
      const { pseudonym, counts } = await service.eraseStudent(db, service.actorOf(request.user!), request.params.pin, request.body.confirm);
      return { pseudonym, ...counts };
    },
  );
};
