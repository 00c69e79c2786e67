import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { ClassNameSchema } from '../../../../shared/schemas/classes';
import { serverText } from '../../../i18n/server-text';

/**
 * A class's name as typed, for the add and rename forms: `props` go on its TextInput (typing clears
 * the error), `check()` gives the name as the server will take it, or shows why it cannot and gives
 * null, and `fail(message)` shows the server's refusal (a name already taken).
 */
export function useClassNameField(initial: string) {
  const { t } = useLingui();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return {
    name,
    setName,
    props: {
      value: name,
      onChange: (event: { currentTarget: { value: string } }) => {
        setName(event.currentTarget.value);
        setError(null);
      },
      error,
      maxLength: 64,
    },
    check(): string | null {
      const parsed = ClassNameSchema.safeParse(name);
      if (!parsed.success) {
        setError(serverText(parsed.error.issues[0]?.message) ?? t`Please check the name`);
        return null;
      }
      setError(null);
      return parsed.data;
    },
    fail: (message: string) => setError(message),
  };
}
