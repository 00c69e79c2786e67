import { useMediaQuery } from '@mantine/hooks';

/** Narrower than the kit's `xs` breakpoint (36em, 576 px at the default text size): a phone. */
const PHONE_QUERY = '(max-width: 35.99em)';

/**
 * Whether the screen is a phone's, known at the first render (so that a table does not show for a
 * moment before its phone layout), and followed as the window changes.
 */
export function usePhoneScreen(): boolean {
  return useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
}
