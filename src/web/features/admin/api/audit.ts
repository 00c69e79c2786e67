import { useInfiniteQuery } from '@tanstack/react-query';
import { AuditPageSchema, type AuditAction, type AuditPage } from '../../../../shared/schemas/audit';
import { api } from '../../../lib/api-client';

export interface AuditFilter {
  action?: AuditAction | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export const auditKeys = {
  all: ['admin', 'audit'] as const,
  list: (filter: AuditFilter) => ['admin', 'audit', filter] as const,
};

/** The query string of the filter (and a page's cursor), without empty values. */
export function auditSearch(filter: AuditFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, ...extra })) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const AUDIT_PAGE_SIZE = 50;

export function fetchAuditPage(filter: AuditFilter, before: string | null, signal?: AbortSignal): Promise<AuditPage> {
  const search = auditSearch(filter, { limit: String(AUDIT_PAGE_SIZE), ...(before ? { before } : {}) });
  return api.get(`/api/admin/audit${search}`, AuditPageSchema, { signal });
}

/** The trail, newest first, a page at a time. */
export function useAuditTrail(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filter),
    queryFn: ({ pageParam, signal }) => fetchAuditPage(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
  });
}

/** The filtered trail as a CSV file. */
export function fetchAuditCsv(filter: AuditFilter): Promise<Blob> {
  return api.blob(`/api/admin/audit${auditSearch(filter, { format: 'csv' })}`, 'text/csv');
}
