import { z } from './zod';

/** GET /api/health: the process answers (liveness); it asks nothing of the database. */
export const HealthSchema = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });

/** Why a process is not ready to take requests. */
export const NOT_READY_REASONS = ['database unreachable', 'migrations pending', 'shutting down'] as const;
export type NotReadyReason = (typeof NOT_READY_REASONS)[number];

/** GET /api/ready, 200: the database answers, its migrations are applied, and the process is not stopping. */
export const ReadySchema = z.object({ status: z.literal('ready') });
/** GET /api/ready, 503: why not. */
export const NotReadySchema = z.object({ status: z.literal('not ready'), reason: z.enum(NOT_READY_REASONS) });
