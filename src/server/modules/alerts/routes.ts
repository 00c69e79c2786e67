import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AlertSettingsSchema,
  MarkReadSchema,
  NotificationListSchema,
  NotificationSettingsSchema,
  UpdateAlertRulesSchema,
} from '../../../shared/schemas/alerts';
import { ErrorSchema } from '../../../shared/schemas/common';
import type { Database } from '../../db/client';
import { readerLanguage, translator } from '../../i18n';
import { requireAdmin, requireSignedIn } from '../../plugins/auth';
import * as service from './service';
import type { AlertContext } from './service';

export interface AlertRoutesOptions {
  database: Pick<Database, 'db' | 'notify'>;
  /** The alerts' settings, once the database is open (the unsubscribe keys live there). */
  context: () => Promise<AlertContext>;
}

const refusals = { 401: ErrorSchema, 403: ErrorSchema };
const TokenQuerySchema = z.object({ t: z.string().max(200).describe("The signed token of the e-mail's unsubscribe link") });

/** A page small enough to need no script: the link's GET asks, its button POSTs (RFC 8058 clients POST directly). */
function page(language: string, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5"><h1 style="font-size: 1.5rem">${title}</h1>${body}</body></html>`;
}

export const alertRoutes: FastifyPluginAsyncZod<AlertRoutesOptions> = async (app, { database, context }) => {
  const db = database.db;
  /** The unsubscribe pages speak the language of the account the link is for, else the browser's. */
  const pageTranslator = async (token: string, acceptLanguage: string | undefined) =>
    translator(readerLanguage({ language: await service.unsubscribeLanguage(db, (await context()).keys, token) }, acceptLanguage));

  app.get(
    '/api/admin/alerts',
    { onRequest: requireAdmin, schema: { tags: ['admin'], operationId: 'getAlertSettings', summary: 'The alert rules, each on or off, and the threshold (admins)', response: { 200: AlertSettingsSchema, ...refusals } } },
    async () => service.alertSettings(db, (await context()).threshold),
  );

  app.put(
    '/api/admin/alerts',
    {
      onRequest: requireAdmin,
      schema: {
        tags: ['admin'],
        operationId: 'updateAlertRules',
        summary: 'Switches alert rules on or off (admins); audited as alerts.update',
        body: UpdateAlertRulesSchema,
        response: { 200: AlertSettingsSchema, 400: ErrorSchema, ...refusals },
      },
    },
    async (request) => service.updateAlertRules(database, request.user!, (await context()).threshold, request.body.rules),
  );

  app.get(
    '/api/notifications',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['notifications'],
        operationId: 'listNotifications',
        summary: "The signed-in account's newest notices (30) and how many are unread",
        response: { 200: NotificationListSchema, ...refusals },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return service.listNotifications(db, request.user!.id, readerLanguage(request.user, request.headers['accept-language']));
    },
  );

  app.post(
    '/api/notifications/read',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['notifications'],
        operationId: 'markNotificationsRead',
        summary: "Marks some of the account's notices ({ ids }) or all of them ({ all: true }) as read",
        body: MarkReadSchema,
        response: { 200: z.object({ unread: z.number().int() }), 400: ErrorSchema, ...refusals },
      },
    },
    async (request) => service.markNotificationsRead(db, request.user!.id, request.body),
  );

  app.get(
    '/api/me/notification-settings',
    {
      onRequest: requireSignedIn,
      schema: { tags: ['notifications'], operationId: 'getNotificationSettings', summary: 'How the account gets alerts by e-mail', response: { 200: NotificationSettingsSchema, ...refusals } },
    },
    async (request) => ({ email: await service.emailChoice(db, request.user!.id) }),
  );

  app.put(
    '/api/me/notification-settings',
    {
      onRequest: requireSignedIn,
      schema: {
        tags: ['notifications'],
        operationId: 'updateNotificationSettings',
        summary: 'Chooses how the account gets alerts by e-mail: immediate, daily (07:30), weekly (Monday 07:30) or never',
        body: NotificationSettingsSchema,
        response: { 200: NotificationSettingsSchema, 400: ErrorSchema, ...refusals },
      },
    },
    async (request) => ({ email: await service.setEmailChoice(db, request.user!.id, request.body.email) }),
  );

  // One-click unsubscribe (RFC 8058): mail programs POST `List-Unsubscribe=One-Click` as a form.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'], { parseAs: 'string' }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.get(
      '/api/notifications/unsubscribe',
      {
        schema: {
          tags: ['notifications'],
          operationId: 'unsubscribePage',
          summary: "The page an alert e-mail's unsubscribe link opens: a button that stops alert e-mails",
          querystring: TokenQuerySchema,
          response: { 200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } }, 400: ErrorSchema },
        },
      },
      async (request, reply) => {
        const action = `/api/notifications/unsubscribe?t=${encodeURIComponent(request.query.t)}`;
        const tr = await pageTranslator(request.query.t, request.headers['accept-language']);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('vary', 'Accept-Language')
          .send(
            page(
              tr.language,
              tr.t('unsubscribe.ask.title'),
              `<p>${tr.t('unsubscribe.ask.text')}</p><form method="post" action="${action.replace(/"/g, '&quot;')}"><button type="submit" style="font-size: 1rem; padding: 0.5rem 1rem">${tr.t('unsubscribe.ask.button')}</button></form>`,
            ),
          );
      },
    );
    scope.post(
      '/api/notifications/unsubscribe',
      {
        schema: {
          tags: ['notifications'],
          operationId: 'unsubscribe',
          summary: 'Turns alert e-mails off for the account the signed token names, without a sign-in (RFC 8058 one-click)',
          querystring: TokenQuerySchema,
          response: { 200: { description: 'Done', content: { 'text/html': { schema: z.string() } } }, 400: ErrorSchema },
        },
      },
      async (request, reply) => {
        await service.unsubscribe(db, (await context()).keys, request.query.t);
        const tr = await pageTranslator(request.query.t, request.headers['accept-language']);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('vary', 'Accept-Language')
          .send(page(tr.language, tr.t('unsubscribe.done.title'), `<p>${tr.t('unsubscribe.done.text')}</p>`));
      },
    );
  });
};
