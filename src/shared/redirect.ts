/** Only paths inside the portal are followed, so a crafted link cannot send a user elsewhere. */
export function safeReturnUrl(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Browsers drop tabs and newlines from URLs, so '/\t/evil.example' would become '//evil.example'.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const resolved = new URL(value, 'https://portal.invalid');
  if (resolved.origin !== 'https://portal.invalid' || resolved.pathname.startsWith('/login')) return null;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
