import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { messages } from '../i18n/catalogs/en';
import { i18n } from '../i18n/i18n';

// The app's messages in English, as the app loads them with its code.
i18n.load('en', messages);

afterEach(() => cleanup());

// The pages talk to the real server and database in the same process: on a busy two-core machine a
// write and the answer to it can take longer than the library's one-second default wait.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks the layout APIs that Mantine's components ask for.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => undefined;
