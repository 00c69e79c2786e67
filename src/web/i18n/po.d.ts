/** A message catalog, compiled when it is imported (the Lingui plugin in vite.config.ts). */
declare module '*.po' {
  import type { Messages } from '@lingui/core';

  export const messages: Messages;
}
