import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorSchema } from '../../../shared/schemas/common';
import { NoticeParamsSchema, NoticeSchema } from '../../../shared/schemas/notices';
import type { Notices } from '../../config';
import { DEFAULT_NOTICES } from './defaults';

/**
 * The privacy and accessibility notices: the university's own text (read from its files at start)
 * or the portal's. Public: the sign-in and registration pages link to them.
 */
export const noticeRoutes: FastifyPluginAsyncZod<{ notices: Notices }> = async (app, { notices }) => {
  app.get(
    '/api/notices/:name',
    {
      schema: {
        tags: ['notices'],
        operationId: 'getNotice',
        summary: 'The privacy notice or the accessibility statement, as Markdown',
        params: NoticeParamsSchema,
        response: { 200: NoticeSchema, 400: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const own = notices[name];
      reply.header('cache-control', 'public, max-age=300');
      return { name, markdown: own ?? DEFAULT_NOTICES[name], custom: own !== undefined };
    },
  );
};
