import { Stack } from '@mantine/core';
import { useLocation } from 'react-router';
import type { NoticeName } from '../../../../shared/schemas/notices';
import { QueryState } from '../../../components/load-states';
import { Markdown } from '../../../lib/markdown';
import { useNotice } from '../api/get-notice';

/** /privacy and /accessibility (public): the university's notice, or the portal's own. */
export function NoticePage() {
  const name: NoticeName = useLocation().pathname.startsWith('/accessibility') ? 'accessibility' : 'privacy';
  const notice = useNotice(name);
  if (!notice.isSuccess) {
    const what = name === 'privacy' ? 'privacy notice' : 'accessibility statement';
    return <QueryState query={notice} loading={`Loading the ${what}…`} failed={`Error loading the ${what}`} />;
  }
  return (
    <Stack gap="sm" maw="46rem" style={{ overflowWrap: 'anywhere' }} component="article">
      <Markdown source={notice.data.markdown} />
    </Stack>
  );
}

export default NoticePage;
