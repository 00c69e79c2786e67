import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import classes from './skip-link.module.css';

/** The id of every page's main landmark: the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/** How long a new page may take to show its heading (its chunk and first data) before focus gives up. */
const HEADING_WAIT_MS = 5000;

/** A page's heading, where focus goes when the page changes. */
export function pageHeading(): HTMLElement | null {
  const main = document.getElementById(MAIN_CONTENT_ID);
  return main?.querySelector<HTMLElement>('h1') ?? null;
}

/**
 * Moves focus to the new page's heading once it shows, so that a screen reader starts reading the
 * new page and the next Tab starts from it; `leaving`, the heading of the page still on screen
 * while the new one is prepared, is not it. Returns the cancel.
 */
export function focusHeadingWhenShown(leaving: HTMLElement | null = null): () => void {
  const started = Date.now();
  let timer: number | undefined;
  const attempt = () => {
    // The page is gone (a test's document torn down while the heading was awaited): nothing to focus.
    if (typeof document === 'undefined') return;
    const heading = pageHeading();
    if (heading && heading !== leaving) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return;
    }
    if (Date.now() - started < HEADING_WAIT_MS) timer = window.setTimeout(attempt, 50);
  };
  attempt();
  return () => window.clearTimeout(timer);
}

/**
 * The first Tab of every page reaches `Skip to main content`. Shown only when it has focus; it
 * moves focus to the page's heading, or to its main landmark.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className={classes.skipLink}
      onClick={(event) => {
        const target = pageHeading() ?? document.getElementById(MAIN_CONTENT_ID);
        if (!target) return;
        event.preventDefault();
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        target.focus();
      }}
    >
      <Trans>Skip to main content</Trans>
    </a>
  );
}

/** The page title: the fixed 'University Portal', with the university's name when configured. */
export function documentTitle(universityName: string | null | undefined): string {
  return universityName ? t`University Portal · ${universityName}` : t`University Portal`;
}
