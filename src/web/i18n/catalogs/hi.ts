// The app's messages in this language, every part of the app in one file (src/web/i18n/i18n.ts loads it).
import { messages as account } from '../../locales/hi/account.po';
import { messages as admin } from '../../locales/hi/admin.po';
import { messages as frame } from '../../locales/hi/frame.po';
import { messages as records } from '../../locales/hi/records.po';
import { messages as register } from '../../locales/hi/register.po';
import { messages as server } from '../../locales/hi/server.po';

export const messages = { ...account, ...admin, ...frame, ...records, ...register, ...server };
