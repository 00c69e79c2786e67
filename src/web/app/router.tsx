import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginRoute } from '../features/auth/pages/login-route';
import { PageLoader } from '../components/page-loader';
import { adminPageChunks, layoutChunk, pageChunks } from './page-chunks';
import { RequireAdmin, RequireAuth, RequireStaff } from './require-auth';
import { RouteError } from './route-error';
import { RootLayout } from './route-focus';

/** Each screen is its own chunk (page-chunks.ts), loaded when its route is first visited. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first screen's chunk loads.
    HydrateFallback: PageLoader,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      // The same page as the sign-in shell shows first (sign-in-shell.tsx), here inside the app.
      { path: 'login', Component: LoginRoute },
      { path: 'set-password', ...page(pageChunks['set-password']) },
      {
        // The check-in's projector view fills the screen, without the header and menus.
        element: <RequireAuth />,
        children: [{ element: <RequireStaff />, children: [{ path: 'checkin/:id', ...page(pageChunks.checkin) }] }],
      },
      {
        // Its own chunk too: the sign-in page, outside the layout, loads none of the header's menus.
        lazy: async () => ({ Component: (await layoutChunk()).AppLayout }),
        children: [
          { path: 'register', ...page(pageChunks.register) },
          { path: 'contact-us', ...page(pageChunks['contact-us']) },
          { path: 'privacy', ...page(pageChunks.privacy) },
          { path: 'accessibility', ...page(pageChunks.accessibility) },
          { path: 'success', ...page(pageChunks.success) },
          {
            element: <RequireAuth />,
            children: [
              { path: 'faculty', ...page(pageChunks.faculty) },
              { path: 'student', ...page(pageChunks.student) },
              { path: 'welcome/*', ...page(pageChunks.welcome) },
              { path: 'account', ...page(pageChunks.account) },
              { path: 'scan', ...page(pageChunks.scan) },
              { path: 'checkin-result', ...page(pageChunks['checkin-result']) },
              {
                element: <RequireStaff />,
                children: [
                  { path: 'dashboard', ...page(pageChunks.dashboard) },
                  { path: 'attendance/:class', ...page(pageChunks.attendance) },
                  { path: 'faculty-details', ...page(pageChunks['faculty-details']) },
                  { path: 'inbox', ...page(pageChunks.inbox) },
                  { path: 'corrections', ...page(pageChunks.corrections) },
                ],
              },
              {
                path: 'admin',
                element: <RequireAdmin />,
                children: [
                  {
                    ...page(pageChunks.admin),
                    children: [
                      { index: true, ...page(adminPageChunks['']) },
                      { path: 'users', ...page(adminPageChunks.users) },
                      { path: 'classes', ...page(adminPageChunks.classes) },
                      { path: 'classes/:class/timetable', ...page(adminPageChunks.timetable) },
                      { path: 'subjects', ...page(adminPageChunks.subjects) },
                      { path: 'roster', ...page(adminPageChunks.roster) },
                      { path: 'terms', ...page(adminPageChunks.terms) },
                      { path: 'audit', ...page(adminPageChunks.audit) },
                      { path: 'import', ...page(adminPageChunks.import) },
                      { path: 'alerts', ...page(adminPageChunks.alerts) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/login" replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
