import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app';
import { createInjectFetch } from '../../server/test/inject-fetch';
import { createTestDatabase, type TestDatabase } from '../../server/test/test-db';
import { LoginRoute } from '../features/auth/pages/login-route';
import { brandPalette } from './theme';
import { renderRoutes } from '../test/render';
import { RootLayout } from './route-focus';
import { TEST_APP_CONFIG } from '../../server/test/test-app';

let database: TestDatabase;
let close: () => Promise<void>;

beforeAll(async () => {
  database = await createTestDatabase();
  // The logo file is not read until it is asked for: this test only needs its address.
  const app = await buildApp({
    database,
    config: {
      ...TEST_APP_CONFIG,
      branding: { name: 'Riverside University', color: '#1d4f91', logoFile: '/nonexistent/logo.png' },
    },
  });
  vi.stubGlobal('fetch', createInjectFetch(app));
  close = async () => {
    await app.close();
    await database.close();
  };
}, 60_000);
afterAll(async () => {
  vi.unstubAllGlobals();
  await close?.();
});

describe('the university\'s branding', () => {
  it('shows the name and logo on the sign-in page beside the specification\'s title, and in the page title', async () => {
    const { container } = renderRoutes([{ element: <RootLayout />, children: [{ path: '/login', element: <LoginRoute /> }] }], '/login');
    expect(await screen.findByText('Riverside University')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'University Portal' })).toBeInTheDocument();
    expect(container.querySelector('img[src="/api/branding/logo"]')).not.toBeNull();
    await waitFor(() => expect(document.title).toBe('University Portal · Riverside University'));
  });
});

describe('brandPalette', () => {
  it('puts the colour at shade 6, lighter shades before it and darker after', () => {
    const palette = brandPalette('#1d4f91');
    expect(palette).toHaveLength(10);
    expect(palette[6]).toBe('#1d4f91');
    const brightness = (hex: string) => [1, 3, 5].reduce((sum, at) => sum + Number.parseInt(hex.slice(at, at + 2), 16), 0);
    for (let shade = 1; shade < 10; shade += 1) expect(brightness(palette[shade]!)).toBeLessThan(brightness(palette[shade - 1]!));
  });
});
