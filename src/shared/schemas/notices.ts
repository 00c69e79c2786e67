import { z } from './zod';

export const NOTICE_NAMES = ['privacy', 'accessibility'] as const;
export type NoticeName = (typeof NOTICE_NAMES)[number];

export const NoticeParamsSchema = z.object({ name: z.enum(NOTICE_NAMES, { error: 'The notices are privacy and accessibility' }) });

export const NoticeSchema = z.object({
  name: z.enum(NOTICE_NAMES),
  markdown: z.string().describe("The notice as Markdown: headings, paragraphs, lists, links and emphasis; raw HTML is shown as text"),
  custom: z.boolean().describe("True when it is the university's own text (PORTAL_PRIVACY_FILE or PORTAL_ACCESSIBILITY_FILE)"),
});
export type Notice = z.infer<typeof NoticeSchema>;
