/** Where Mantine keeps a colour scheme picked with the switch (its local-storage manager's key). */
export const COLOR_SCHEME_STORAGE_KEY = 'mantine-color-scheme-value';

/**
 * Runs in the page's head before anything paints: the scheme picked with the switch, else the
 * device's, so a dark page never flashes white while the app loads. vite.config.ts puts it in
 * index.html; the server allows exactly this script by its hash (app.ts).
 */
export const COLOR_SCHEME_SCRIPT = `try{var s=localStorage.getItem('${COLOR_SCHEME_STORAGE_KEY}');if(s!=='light'&&s!=='dark')s=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';document.documentElement.setAttribute('data-mantine-color-scheme',s)}catch(e){}`;
