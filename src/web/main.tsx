import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/colors.css';
import './app/print.css';
import { createRoot } from 'react-dom/client';
import { startApp } from './app/open-app';
import { isSignInPath, startSignIn } from './app/sign-in-shell';

// The sign-in page, where nearly every visit starts, shows without the app's code (decision 18);
// every other address loads the app.
const root = createRoot(document.getElementById('root')!);
if (isSignInPath(window.location.pathname)) startSignIn(root);
else startApp(root);
