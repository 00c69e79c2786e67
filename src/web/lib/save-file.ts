/** Hands a file made in the page to the browser as a download. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; give the browser a moment before letting go of the data.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
