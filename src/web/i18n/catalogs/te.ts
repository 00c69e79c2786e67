// The app's messages in this language, every part of the app in one file (src/web/i18n/i18n.ts loads it).
import { messages as account } from '../../locales/te/account.po';
import { messages as admin } from '../../locales/te/admin.po';
import { messages as frame } from '../../locales/te/frame.po';
import { messages as records } from '../../locales/te/records.po';
import { messages as register } from '../../locales/te/register.po';
import { messages as server } from '../../locales/te/server.po';

export const messages = { ...account, ...admin, ...frame, ...records, ...register, ...server };
