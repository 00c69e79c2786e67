import { useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { useLocation } from 'react-router';
import type { NoticeName } from '../../../../shared/schemas/notices';
import { QueryState } from '../../../components/load-states';
import { Markdown } from '../../../lib/markdown';
import { useNotice } from '../api/get-notice';

/** /privacy and /accessibility (public): the university's notice, or the portal's own. */
export function NoticePage() {
  const { t } = useLingui();
  const name: NoticeName = useLocation().pathname.startsWith('/accessibility') ? 'accessibility' : 'privacy';
  const notice = useNotice(name);
  if (!notice.isSuccess) {
    return name === 'privacy' ? (
      <QueryState query={notice} loading={t`Loading the privacy notice…`} failed={t`Error loading the privacy notice`} />
    ) : (
      <QueryState query={notice} loading={t`Loading the accessibility statement…`} failed={t`Error loading the accessibility statement`} />
    );
  }
  return (
    <Stack gap="sm" maw="46rem" style={{ overflowWrap: 'anywhere' }} component="article">
      <Markdown source={notice.data.markdown} />
    </Stack>
  );
}

export default NoticePage;
