import { useQuery } from '@tanstack/react-query';
import type { MantineColorsTuple } from '@mantine/core';
import { BrandingSchema, type Branding } from '../../shared/schemas/branding';
import { api } from './api-client';

/**
 * The university's name, colour and logo (DESIGN.md 7.7), as the server's configuration gives
 * them: fetched once per page load. Until it arrives (or if it fails) the portal shows its own
 * look, the specification's strings alone.
 */
/** The branding query's key: kept when a user signs out (lib/session.ts), as it belongs to nobody. */
export const BRANDING_KEY = 'branding';

export function useBranding() {
  return useQuery({
    queryKey: [BRANDING_KEY],
    queryFn: ({ signal }): Promise<Branding> => api.get('/api/branding', BrandingSchema, { signal }),
    staleTime: Infinity,
    retry: 1,
  });
}

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
