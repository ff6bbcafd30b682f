/** Browser helpers for uploads and downloads: base64 of a File, a CSV's header row, saving bytes. */
import Papa from 'papaparse';

/** The file's bytes as base64 (what the spec's *_binary fields carry). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/** The first 64 KB of a file as text (enough for a header row). */
function readHead(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsText(file.slice(0, 64 * 1024));
  });
}

/** The header cells of a CSV file (delimiter detected by PapaParse), trimmed; blank ones are left out. */
export async function csvHeaderRow(file: Blob, name: string): Promise<string[]> {
  const head = (await readHead(file)).replace(/^\ufeff/, '');
  const firstLine = head.split(/\r?\n/).find((l) => l.trim()) ?? '';
  if (!firstLine) throw new Error(`"${name}" is empty: it has no header row.`);
  const parsed = Papa.parse<string[]>(firstLine, { preview: 1 });
  const cells = (parsed.data[0] ?? []).map((c) => String(c).trim()).filter(Boolean);
  if (!cells.length) throw new Error(`"${name}" has no column names in its first row.`);
  return [...new Set(cells)];
}

/** Offers bytes (base64) to the user as a download named `fileName`. */
export function saveBase64(fileName: string, contentType: string, base64: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: contentType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
