import { useLingui } from '@lingui/react/macro';
import { NativeSelect } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../shared/languages';
import { currentLanguage, showLanguage } from './i18n';

export interface LanguageSwitcherProps {
  /**
   * Keeps the choice beyond this device (the account's, on the server); the portal shows the
   * language at once either way, and remembers it on the device.
   */
  onChosen?: (language: Language) => Promise<unknown> | void;
  /** A visible label; without it the field is named for screen readers only. */
  label?: ReactNode;
  /** Below the field, as on the account page. */
  description?: ReactNode;
  size?: 'xs' | 'sm' | 'md';
}

/**
 * The language picker: on the sign-in page, in the header and on the account page. A native
 * select (light enough for the sign-in page, and a phone's own picker), each language named in
 * itself and marked with its `lang`, so a screen reader reads each name in its language.
 */
export function LanguageSwitcher({ onChosen, label, description, size = 'xs' }: LanguageSwitcherProps) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [unsaved, setUnsaved] = useState(false);
  const change = async (value: string) => {
    if (!isLanguage(value) || value === currentLanguage()) return;
    setBusy(true);
    setUnsaved(false);
    try {
      await showLanguage(value, { remember: true });
      // Shown here either way; kept beyond this device only when the server took it.
      await onChosen?.(value);
    } catch {
      setUnsaved(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <NativeSelect
      size={size}
      label={label}
      description={description}
      aria-label={label ? undefined : t`Language`}
      value={currentLanguage()}
      disabled={busy}
      error={unsaved ? t`Kept on this device only: your account could not be updated. Try again later.` : undefined}
      onChange={(event) => void change(event.currentTarget.value)}
      data-testid="language-switcher"
    >
      {LANGUAGES.map((language) => (
        <option key={language} value={language} lang={language}>
          {LANGUAGE_NAMES[language]}
        </option>
      ))}
    </NativeSelect>
  );
}
