// Tuning aid: scores text-layer renders of one split and prints the misses.
import { extractInvoice } from '../../../src/server/ai/extraction/invoice';
import { readDocument } from '../../../src/server/ai/extraction/read-document';
import { renderInvoicePdf, specs } from './render';
import { prf, scoreInvoice, type Counts } from './score';

async function main() {
  const split = (process.argv[2] ?? 'tuning') as 'tuning' | 'held-out';
  const n = Number(process.argv[3] ?? 30);
  const counts = new Map<string, Counts>();
  const ocr = { recognize: () => Promise.reject(new Error('no OCR in tuning')), close: async () => undefined };
  for (const spec of specs(split, n, split === 'tuning' ? 1000 : 1)) {
    const inv = await renderInvoicePdf(spec);
    const doc = await readDocument(inv.pdf, 'pdf', { ocr });
    const res = extractInvoice(doc.pages);
    const misses = scoreInvoice(res, inv.truth, inv.data, counts);
    if (misses.length) console.log(`${spec.layout}/${spec.font}/${spec.seed}:\n  ${misses.join('\n  ')}`);
  }
  for (const [k, c] of counts) console.log(k.padEnd(18), prf(c).f1.toFixed(3));
  const all = [...counts.values()].reduce((a, b) => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn }));
  console.log('overall', prf(all));
}
main();
