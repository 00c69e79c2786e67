import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginRoute } from '../features/auth/pages/login-route';
import { PageLoader } from '../components/page-loader';
import { RequireAdmin, RequireAuth, RequireStaff } from './require-auth';
import { RouteError } from './route-error';
import { RootLayout } from './route-focus';

/** Each screen is its own chunk, loaded when its route is first visited. */
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
      { path: 'set-password', ...page(() => import('../features/auth/pages/set-password-page')) },
      {
        // Its own chunk too: the sign-in page, outside the layout, loads none of the header's menus.
        lazy: async () => ({ Component: (await import('./app-layout')).AppLayout }),
        children: [
          { path: 'register', ...page(() => import('../features/students/pages/register-page')) },
          { path: 'contact-us', ...page(() => import('../features/contact/pages/contact-page')) },
          { path: 'success', ...page(() => import('../features/attendance/pages/success-page')) },
          {
            element: <RequireAuth />,
            children: [
              { path: 'faculty', ...page(() => import('../features/students/pages/student-search-page')) },
              { path: 'student', ...page(() => import('../features/students/pages/student-search-page')) },
              { path: 'welcome/*', ...page(() => import('../features/students/pages/welcome-page')) },
              { path: 'account', ...page(() => import('../features/account/pages/account-page')) },
              {
                element: <RequireStaff />,
                children: [
                  { path: 'dashboard', ...page(() => import('../features/attendance/pages/dashboard-page')) },
                  { path: 'attendance/:class', ...page(() => import('../features/attendance/pages/class-attendance-page')) },
                  { path: 'faculty-details', ...page(() => import('../features/reports/pages/faculty-details-page')) },
                  { path: 'inbox', ...page(() => import('../features/contact/pages/inbox-page')) },
                  { path: 'corrections', ...page(() => import('../features/corrections/pages/corrections-page')) },
                ],
              },
              {
                path: 'admin',
                element: <RequireAdmin />,
                children: [
                  {
                    ...page(() => import('../features/admin/pages/admin-layout')),
                    children: [
                      { index: true, ...page(() => import('../features/admin/pages/admin-home-page')) },
                      { path: 'users', ...page(() => import('../features/admin/pages/users-page')) },
                      { path: 'classes', ...page(() => import('../features/admin/pages/classes-page')) },
                      { path: 'classes/:class/timetable', ...page(() => import('../features/admin/pages/timetable-page')) },
                      { path: 'subjects', ...page(() => import('../features/admin/pages/subjects-page')) },
                      { path: 'roster', ...page(() => import('../features/admin/pages/roster-page')) },
                      { path: 'terms', ...page(() => import('../features/admin/pages/terms-page')) },
                      { path: 'audit', ...page(() => import('../features/admin/pages/audit-page')) },
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
