/** The header row of an uploaded CSV, read in the browser (the key choices of the config form). */
// PapaParse loads when the first file is chosen (issue 7: not part of the setup screen's first load)
const loadPapa = () => import(/* webpackChunkName: "papaparse" */ 'papaparse').then((m) => m.default);

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
  const Papa = await loadPapa();
  const parsed = Papa.parse<string[]>(firstLine, { preview: 1 });
  const cells = (parsed.data[0] ?? []).map((c) => String(c).trim()).filter(Boolean);
  if (!cells.length) throw new Error(`"${name}" has no column names in its first row.`);
  return [...new Set(cells)];
}
