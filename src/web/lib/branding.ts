import { useQuery } from '@tanstack/react-query';
import { BrandingSchema, type Branding } from '../../shared/schemas/branding';
import { api } from './api-client';

/**
 * The university's name, colour and logo (decision 16), as the server's configuration gives
 * them: fetched once per page load. Until it arrives (or if it fails) the portal shows its own
 * look, its fixed strings alone.
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
