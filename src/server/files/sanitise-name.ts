/**
 * Reduces an uploader's file name to something safe to show: the last path segment, no control
 * or bidi-override characters, no leading dots, at most 200 characters. The result is for
 * display only; storage keys are never derived from it.
 */
export function sanitiseFileName(name: unknown): string {
  if (typeof name !== 'string') return 'file';
  const last = name.split(/[\\/]/).pop() ?? '';
  const cleaned = last
    .normalize('NFC')
    // C0/C1 controls, DEL, and bidirectional overrides that can disguise an extension
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/^[.\s]+/, '')
    .trim();
  const limited = Array.from(cleaned).slice(0, 200).join('');
  return limited === '' ? 'file' : limited;
}
