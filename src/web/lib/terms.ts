import { t } from '@lingui/core/macro';
import { useQuery } from '@tanstack/react-query';
import { ALL_TERMS, TermListSchema, type Term, type TermListItem } from '../../shared/schemas/terms';
import { api } from './api-client';
import { formatDate } from './calendar-date';

/** Every cached term list sits under this key: an admin's change refreshes it. */
export const termsKey = ['terms'] as const;

/** GET /api/terms: every term, newest first, the one holding today marked current. */
export function fetchTerms(signal?: AbortSignal): Promise<TermListItem[]> {
  return api.get('/api/terms', TermListSchema, { signal });
}

export function useTerms() {
  return useQuery({ queryKey: termsKey, queryFn: ({ signal }) => fetchTerms(signal), staleTime: 60_000 });
}

/**
 * The term a screen asks for: a term's id, `all`, or undefined for the server's default (the term
 * that holds today, else the latest that has ended, else all time).
 */
export type TermChoice = string | undefined;

/** `term=<id>` or `term=all` for a query string; '' for the server's default. */
export function termParam(term: TermChoice): string {
  return term === undefined ? '' : `term=${encodeURIComponent(term)}`;
}

/** Adds `?term=` (or `&term=`) to a path when a term was chosen. */
export function withTerm(path: string, term: TermChoice): string {
  const param = termParam(term);
  if (!param) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${param}`;
}

const day = formatDate;

/** '1 Jul 2026 – 30 Nov 2026'. */
export function termDates(term: Pick<Term, 'startsOn' | 'endsOn'>): string {
  return `${day(term.startsOn)} – ${day(term.endsOn)}`;
}

/** What an answer covers, in words (in the language shown): 'Autumn 2026 (1 Jul 2026 – 30 Nov 2026)' or 'All time'. */
export function termDescription(term: Term | null): string {
  return term ? `${term.name} (${termDates(term)})` : t`All time`;
}

/** A term's name for a file name: 'autumn-2026', or 'all-time'. */
export function termFileTag(term: Term | null): string {
  if (!term) return 'all-time';
  const slug = term.name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return slug || 'term';
}

export { ALL_TERMS };
