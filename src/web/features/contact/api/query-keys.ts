export const contactKeys = {
  info: ['contact', 'info'] as const,
  inbox: ['contact', 'inbox'] as const,
};
