/** The service worker's address: the build writes it at the root (vite.config.ts), so that its scope is the whole portal. */
export const SERVICE_WORKER_PATH = '/sw.js';

/**
 * Registers the service worker, which keeps the app's files on the device so that a reload
 * without a connection still opens the portal (the register's offline use, decision 46). From the
 * app only, once the page has loaded: the sign-in page neither loads this nor waits for the
 * files the worker fetches. Not in development, where Vite serves the files and no worker is built.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_PATH).catch(() => {
      // No worker (a browser that refuses it, an http address other than localhost): the portal works online as before.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
