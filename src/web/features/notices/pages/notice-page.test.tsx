import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppLayout } from '../../../app/app-layout';
import { renderRoutes } from '../../../test/render';
import { startTestServer } from '../../../test/server';
import { RegisterPage } from '../../students/pages/register-page';
import { NoticePage } from './notice-page';

startTestServer({
  config: {
    notices: {
      // The university's own privacy notice, with what must not become HTML or a working link.
      privacy: [
        '# Privacy at Example University',
        '',
        'We keep **only** what the registers need. Write to [the office](mailto:office@example.edu)',
        'or read [the policy](https://example.edu/policy).',
        '',
        '<script>alert(1)</script> <img src=x onerror=alert(2)>',
        '',
        '- one *item*',
        '- [a trap](javascript:alert(3))',
      ].join('\n'),
      accessibility: undefined,
    },
  },
});

function renderNotice(path: string) {
  return renderRoutes(
    [
      {
        element: <AppLayout />,
        children: [
          { path: '/privacy', element: <NoticePage /> },
          { path: '/accessibility', element: <NoticePage /> },
          { path: '/register', element: <RegisterPage /> },
        ],
      },
    ],
    path,
  );
}

describe('the notice pages', () => {
  it('show the portal\'s accessibility statement by default', async () => {
    renderNotice('/accessibility');
    expect(await screen.findByRole('heading', { level: 1, name: 'Accessibility statement' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Known exceptions' })).toBeInTheDocument();
    expect(screen.getByText(/WCAG\) 2\.2, level AA/)).toBeInTheDocument();
  });

  it('show the university\'s Markdown as headings, lists, links and emphasis, and HTML as text', async () => {
    const { container } = renderNotice('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy at Example University' })).toBeInTheDocument();
    expect(screen.getByText('only').tagName).toBe('STRONG');
    expect(screen.getByText('item').tagName).toBe('EM');
    expect(screen.getByRole('link', { name: 'the office' })).toHaveAttribute('href', 'mailto:office@example.edu');
    expect(screen.getByRole('link', { name: 'the policy' })).toHaveAttribute('href', 'https://example.edu/policy');
    // No script or image made from the file, and the javascript: link is plain text.
    const article = container.querySelector('article')!;
    expect(article.querySelector('script, img')).toBeNull();
    expect(within(article).getByText(/<script>alert\(1\)<\/script>/)).toBeInTheDocument();
    expect(within(article).getAllByRole('listitem')).toHaveLength(2);
    expect(within(article).queryByRole('link', { name: 'a trap' })).toBeNull();
    expect(within(article).getByText(/a trap/)).toBeInTheDocument();
  });

  it('are linked from every page\'s footer and from the registration form', async () => {
    renderNotice('/register');
    const footer = await screen.findByRole('contentinfo', { name: 'Notices' });
    expect(within(footer).getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
    expect(within(footer).getByRole('link', { name: 'Accessibility' })).toHaveAttribute('href', '/accessibility');
    const form = await screen.findByRole('form', { name: 'Student registration' });
    expect(within(form).getByRole('link', { name: 'privacy notice' })).toHaveAttribute('href', '/privacy');
    expect(within(form).getByRole('link', { name: 'accessibility statement' })).toHaveAttribute('href', '/accessibility');
  });
});
