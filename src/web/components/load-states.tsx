import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Paper, Stack, Text, type MantineSpacing } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Component, type ReactNode } from 'react';
import { PageLoader } from './page-loader';

/**
 * What a page, or a part of one, shows when its data could not be loaded: what went wrong, and a
 * way to ask again where asking again can help.
 *
 * Props:
 * - `title`: the page's own heading of the failure; a part of a page (a section, a list) has none.
 * - `message`: the server's words, or the page's own.
 * - `onRetry`: asks again (`retryLabel`, default 'Try Again'); without it, no button.
 * - `retrying`: the button spins while the question is asked again.
 */
export function LoadError({
  title,
  message,
  onRetry,
  retryLabel,
  retrying = false,
  m,
}: {
  title?: string;
  message: ReactNode;
  onRetry?: (() => void) | undefined;
  retryLabel?: string;
  retrying?: boolean;
  m?: MantineSpacing;
}) {
  const { t } = useLingui();
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} title={title} role="alert" m={m}>
      <Stack align="flex-start" gap={title ? 'sm' : 'xs'}>
        <Text size="sm">{message}</Text>
        {onRetry && (
          <Button variant="light" color="red" size={title ? 'sm' : 'xs'} onClick={onRetry} loading={retrying}>
            {retryLabel ?? t`Try Again`}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** What a list shows when it has nothing yet: an icon, what is missing, and what to do about it. */
export function EmptyState({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="xs">
        {icon}
        <Text fw={600}>{title}</Text>
        {children !== undefined && (
          <Text size="sm" c="dimmed" ta="center">
            {children}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Its children, or `fallback` once they have failed to render: a part of a page loaded on demand
 * whose code could not be loaded (the connection dropped, or a newer release replaced the files),
 * say. The rest of the page stays, instead of going to the route's error.
 */
export class PartErrorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * A query that has no data to show yet: its spinner (`loading` names it), or, once it has failed,
 * LoadError headed `failed` with the server's words and Try Again. A page writes
 * `if (!query.isSuccess) body = <QueryState query={query} … />;` and has the data after it.
 */
export function QueryState({
  query,
  loading,
  failed,
}: {
  query: Pick<UseQueryResult<unknown>, 'isError' | 'error' | 'refetch'>;
  loading: string;
  failed: string;
}) {
  if (query.isError && query.error) {
    return <LoadError title={failed} message={query.error.message} onRetry={() => void query.refetch()} />;
  }
  return <PageLoader label={loading} />;
}
