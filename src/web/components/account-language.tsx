import { useQueryClient } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import type { Language } from '../../shared/languages';
import { UserResponseSchema } from '../../shared/schemas/auth';
import { api } from '../lib/api-client';
import { keepUser, meQueryKey } from '../lib/session';
import { LanguageSwitcher } from '../i18n/language-switcher';

/**
 * The language picker of a signed-in account (the header, the account page): the choice is the
 * account's, kept on the server, so it follows the account to its other browsers and its e-mails.
 */
export function AccountLanguageSwitcher(props: { label?: ReactNode; description?: ReactNode; size?: 'xs' | 'sm' | 'md' }) {
  const queryClient = useQueryClient();
  const keep = useCallback(
    async (language: Language) => {
      const { user } = await api.put('/api/me/language', { language }, UserResponseSchema);
      queryClient.setQueryData(meQueryKey, (current: object | null | undefined) => (current ? { ...current, ...user } : current));
      keepUser(queryClient.getQueryData(meQueryKey) ?? null);
    },
    [queryClient],
  );
  return <LanguageSwitcher {...props} onChosen={keep} />;
}
