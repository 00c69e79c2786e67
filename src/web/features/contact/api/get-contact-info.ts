import { useQuery } from '@tanstack/react-query';
import { ContactInfoSchema, type ContactInfo } from '../../../../shared/schemas/contact';
import { api } from '../../../lib/api-client';
import { contactKeys } from './query-keys';

/** The address, phone and e-mail blocks of the contact page (public). */
export async function fetchContactInfo(signal?: AbortSignal): Promise<ContactInfo> {
  return api.get('/api/contact/info', ContactInfoSchema, { signal });
}

export function useContactInfo() {
  // Set by the operator at start-up: it does not change while the page is open.
  return useQuery({ queryKey: contactKeys.info, queryFn: ({ signal }) => fetchContactInfo(signal), staleTime: Infinity });
}
