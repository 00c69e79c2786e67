import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Answers smaller than this go as they are, JSON and files alike: compressing them saves next to
 * nothing. The build pre-compresses the web app's files from the same size on (vite.config.ts).
 */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** What the API compresses with, in the order preferred when the client accepts both. */
const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** On the fly, speed matters more than the last few percent. */
const BROTLI_QUALITY = 4;

/**
 * The encoding a client's `Accept-Encoding` asks for, chosen as the plugin below chooses it
 * (`x-gzip` and `*` count as gzip; a zero q-value refuses): undefined for none.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const chosen = negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), [...ENCODINGS]);
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** Compresses a whole answer with the plugin's settings: for answers kept compressed in memory. */
export function compressBody(body: string | Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
    : gzipSync(body);
}

/**
 * Compresses answers of 1 KB or more with br or gzip, as the client's `Accept-Encoding` allows
 * (br first when both are accepted), and sets `Vary: Accept-Encoding` on what it compresses.
 *
 * - Only routes registered after this plugin are compressed: register it before the routes.
 * - `text/event-stream` never is (the plugin's default types leave it out), and the live
 *   updates hijack their reply, which skips the plugin's hook altogether.
 * - An answer that already has a `Content-Encoding` (a pre-compressed file of the web app) is
 *   sent as it is: nothing is compressed twice.
 * - A stream of a known length under 1 KB (a small file of the web app) is read into memory
 *   first, so the threshold holds for files too: the plugin itself applies it only to strings
 *   and buffers, and compresses every stream.
 * - Request bodies are not decompressed: the API takes JSON and CSV as they are sent.
 * - Brotli at quality 4 and gzip at zlib's default level: on the fly, speed matters more than
 *   the last few percent (the web app's files are compressed harder at build time).
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    // An app-wide onSend hook: it runs before the one the compression adds to each route.
    app.addHook('onSend', async (_request, reply, payload) => {
      if (!(payload instanceof Readable) || reply.hasHeader('content-encoding')) return payload;
      const length = Number(reply.getHeader('content-length'));
      return Number.isInteger(length) && length < COMPRESS_THRESHOLD_BYTES ? buffer(payload) : payload;
    });
    await app.register(fastifyCompress, {
      global: true,
      globalDecompression: false,
      encodings: [...ENCODINGS],
      threshold: COMPRESS_THRESHOLD_BYTES,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    });
  },
  { name: 'portal-compression' },
);
