import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import {
  CONTACT_SENT_MESSAGE,
  ContactFormSchema,
  ContactInfoSchema,
  ContactMessageListSchema,
  ContactMessageParamsSchema,
  ContactMessageSchema,
  ContactReadUpdateSchema,
  ContactSentSchema,
} from '../../../shared/schemas/contact';
import type { ContactDetails } from '../../config';
import type { Database } from '../../db/client';
import { requireFaculty } from '../../plugins/auth';
import type { Metrics } from '../../plugins/metrics';
import * as service from './service';

export interface ContactRoutesOptions {
  database: Database;
  contact: ContactDetails;
  /** Whether a form-submission service is configured: the inbox then reports forwarding. */
  forwarding: boolean;
  /** The form is open to anyone, so it is limited per address; a lab behind one address must get through. */
  messagesPer10Minutes: number;
  /** Where the forwarder's outbox is reported, when forwarding. */
  metrics?: Metrics;
}

export const contactRoutes: FastifyPluginAsyncZod<ContactRoutesOptions> = async (
  app,
  { database, contact, forwarding, messagesPer10Minutes, metrics },
) => {
  const info = ContactInfoSchema.parse(contact);
  if (forwarding && metrics) service.addOutboxMetrics(metrics, database.db);

  app.get(
    '/api/contact/info',
    {
      schema: {
        tags: ['contact'],
        operationId: 'getContactInfo',
        summary: 'The address, phone and e-mail shown on the contact page (public)',
        // 400: like every route, a malformed address or a NUL character in the query.
        response: { 200: ContactInfoSchema, 400: ErrorSchema },
      },
    },
    async () => info,
  );

  app.post(
    '/api/contact',
    {
      config: { rateLimit: { max: messagesPer10Minutes, timeWindow: '10 minutes' } },
      schema: {
        tags: ['contact'],
        operationId: 'sendContactMessage',
        summary: 'Send a message (public); it is stored before the answer, then forwarded in the background',
        body: ContactFormSchema,
        response: { 201: ContactSentSchema, 400: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { stored } = await service.submitMessage(database, request.body, request.log);
      if (!stored) request.log.info('contact message dropped: the hidden field was filled in');
      return reply.status(201).send({ message: CONTACT_SENT_MESSAGE });
    },
  );

  // Guards run on onRequest so that a signed-out caller gets 401 before any validation.
  app.get(
    '/api/contact',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['contact'],
        operationId: 'listContactMessages',
        summary: `The inbox: the newest ${service.INBOX_LIMIT} messages, newest first (faculty)`,
        response: { 200: ContactMessageListSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async () => service.listInbox(database.db, forwarding),
  );

  app.patch(
    '/api/contact/:id',
    {
      onRequest: requireFaculty,
      schema: {
        tags: ['contact'],
        operationId: 'setContactMessageRead',
        summary: 'Mark a message read or unread (faculty)',
        params: ContactMessageParamsSchema,
        body: ContactReadUpdateSchema,
        response: { 200: ContactMessageSchema, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request) => service.setMessageRead(database.db, request.params.id, request.body.read, forwarding),
  );
};
