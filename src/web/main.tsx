import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/colors.css';
import './app/print.css';
import { createRoot } from 'react-dom/client';
import { startApp } from './app/open-app';
import { isSignInPath, startSignIn } from './app/sign-in-shell';
import { initialLanguage, showLanguage } from './i18n/i18n';

// The sign-in page, where nearly every visit starts, shows without the app's code (decision 18);
// every other address loads the app.
// In the device's language, once its messages are here (English's are in this file).
const root = createRoot(document.getElementById('root')!);
const start = () => (isSignInPath(window.location.pathname) ? startSignIn(root) : startApp(root));
showLanguage(initialLanguage()).then(start, start);
