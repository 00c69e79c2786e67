import { createTheme, mergeThemeOverrides, type ComboboxProps, type CSSVariablesResolver, type MantineColorsTuple, type MantineThemeOverride, type ModalProps, type NotificationProps, type TableScrollContainerProps } from '@mantine/core';

/**
 * One type scale and one spacing scale for the whole portal: text at 12/14/16/20/24 px,
 * headings at 32/24/20/16/14/12, spacing in 4 px steps. Components use these names (`size="sm"`,
 * `gap="md"`) or, where a number is clearer, a value on the same steps; theme.test.ts checks both.
 */
export const TYPE_SCALE_PX = [12, 14, 16, 20, 24, 32] as const;
export const SPACING_STEP_PX = 4;

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 keeps white text on buttons and tabs, and blue links, above the 4.5:1 contrast ratio.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  fontSizes: { xs: '12px', sm: '14px', md: '16px', lg: '20px', xl: '24px' },
  spacing: { xs: '8px', sm: '12px', md: '16px', lg: '24px', xl: '32px' },
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
    sizes: {
      h1: { fontSize: '32px', lineHeight: '1.25' },
      h2: { fontSize: '24px', lineHeight: '1.3' },
      h3: { fontSize: '20px', lineHeight: '1.35' },
      h4: { fontSize: '16px', lineHeight: '1.4' },
      h5: { fontSize: '14px', lineHeight: '1.45' },
      h6: { fontSize: '12px', lineHeight: '1.5' },
    },
  },
  // Plain objects rather than `Modal.extend(...)`: the theme is in the entry every page loads, and
  // naming the components here would bring dialogs, notifications and scroll areas into it.
  components: {
    // Close buttons are icons: every one gets a name that screen readers say.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps> },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } satisfies Partial<NotificationProps> },
    // A table that scrolls sideways on a phone scrolls as the device scrolls anything (the browser's
    // own scrolling, not the kit's drawn scroll bars, which measure the page as they render), and
    // with the keyboard too (focus, then arrows).
    TableScrollContainer: { defaultProps: { type: 'native', tabIndex: 0 } satisfies Partial<TableScrollContainerProps> },
    // A closed select keeps no hidden list of its options: the kit's default keeps one, and places it
    // under its field as the page renders, a layout of the page for every select on it.
    Combobox: { defaultProps: { keepMounted: false } satisfies Partial<ComboboxProps> },
  },
});

/** Mantine's default dimmed, placeholder and error colours are too light to read easily. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    // Links in the primary colour (the university's, when configured), at the shade buttons use.
    '--mantine-color-anchor': 'var(--mantine-primary-color-8)',
  },
  // Dark surfaces need the light end of each scale to keep text at 4.5:1 (AA in light and dark).
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-2)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-anchor': 'var(--mantine-primary-color-3)',
  },
});

function channels(hex: string): [number, number, number] {
  return [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];
}

function mix(hex: string, toward: number, share: number): string {
  const [r, g, b] = channels(hex).map((value) => Math.round(value + (toward - value) * share));
  return `#${[r, g, b].map((value) => value!.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Ten shades of one colour for Mantine's theme: the colour itself at shade 6, lighter ones mixed
 * with white, darker ones with black. Buttons and links use shade 8 (theme.ts), dark enough for
 * white text on all but the palest colours.
 */
export function brandPalette(hex: string): MantineColorsTuple {
  const lighter = [0.92, 0.8, 0.64, 0.48, 0.32, 0.16].map((share) => mix(hex, 255, share));
  const darker = [0.18, 0.34, 0.48].map((share) => mix(hex, 0, share));
  return [...lighter, hex, ...darker] as unknown as MantineColorsTuple;
}

/** The kit's theme, in the university's colour (decision 16) when the branding names one. */
export function brandedTheme(color: string | null | undefined): MantineThemeOverride {
  return color ? mergeThemeOverrides(theme, { colors: { brand: brandPalette(color) }, primaryColor: 'brand' }) : theme;
}

/** `base` with the names of the dialogs' and toasts' close buttons in the language shown. */
export function withCloseLabels(base: MantineThemeOverride, labels: { close: string; dismiss: string }): MantineThemeOverride {
  return mergeThemeOverrides(base, {
    components: {
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': labels.close } } satisfies Partial<ModalProps> },
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': labels.dismiss } } satisfies Partial<NotificationProps> },
    },
  });
}
