import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** The API's answers: every path under it, except its documentation's pages. */
const API_ANSWER = /^\/api\/(?!docs(?:\/|$|\?))/;

/**
 * What an answer of the API carries (OWASP's REST security guidance): JSON is never a document to
 * render, frame, sniff or embed elsewhere, so it gets a policy that allows nothing instead of the
 * pages' policy, and none of the headers that only concern documents (opener and agent-cluster
 * isolation, download and prefetch switches). Fixed, and set in one pass: the API's busiest answers
 * come from memory, and helmet's chain of a dozen headers was a large share of their cost.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
const API_HEADER_LIST = Object.entries(API_SECURITY_HEADERS);

/**
 * Security headers on every answer: the API's (above), and on the pages and their files helmet's
 * (Content-Security-Policy, HSTS, X-Frame-Options and the rest). Helmet's middleware is built once,
 * here: building it parses the policy, and Fastify's own helmet plugin builds it again for every
 * request, a cost each request paid.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: HelmetOptions) => {
    const apply = helmet(options);
    app.addHook('onRequest', (request, reply, done) => {
      if (API_ANSWER.test(request.url)) {
        for (const [name, value] of API_HEADER_LIST) reply.raw.setHeader(name, value);
        done();
        return;
      }
      apply(request.raw, reply.raw, (err) => done(err instanceof Error ? err : undefined));
    });
  },
  { name: 'portal-security-headers' },
);
