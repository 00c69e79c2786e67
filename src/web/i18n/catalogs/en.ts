// The app's messages in this language, every part of the app in one file (src/web/i18n/i18n.ts loads it).
import { messages as account } from '../../locales/en/account.po';
import { messages as admin } from '../../locales/en/admin.po';
import { messages as frame } from '../../locales/en/frame.po';
import { messages as records } from '../../locales/en/records.po';
import { messages as register } from '../../locales/en/register.po';
import { messages as server } from '../../locales/en/server.po';

export const messages = { ...account, ...admin, ...frame, ...records, ...register, ...server };
