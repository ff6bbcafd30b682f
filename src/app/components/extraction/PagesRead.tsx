import { Caption1, MessageBar, MessageBarBody } from '@fluentui/react-components';

const count = (n: number) => n.toLocaleString('en-GB');

/**
 * How much of a document was read (issue 25): "Read 3 of 3 pages", or "Read the first 20 of 200
 * pages" when the page cap cut it; nothing for a one-page document. `pages` is the pages in the
 * file, `pagesRead` the pages the extraction read (the job result's pages and pagesRead).
 */
export function pagesReadText(pages: number, pagesRead: number): string | null {
  if (!Number.isFinite(pages) || pages <= 1) return null;
  const read = Math.max(0, Math.min(pagesRead, pages));
  if (read >= pages) return `Read ${count(pages)} of ${count(pages)} pages.`;
  if (read === 1) return `Read only the first page of ${count(pages)}: the rest of the document was not read.`;
  return `Read the first ${count(read)} of ${count(pages)} pages: the rest of the document was not read.`;
}

/** The notice beside an extraction result: a caption when every page was read, a warning when some were not. */
export function PagesRead({ pages, pagesRead }: { pages: number | undefined; pagesRead: number | undefined }) {
  if (pages === undefined) return null;
  const text = pagesReadText(pages, pagesRead ?? pages);
  if (!text) return null;
  if ((pagesRead ?? pages) >= pages) return <Caption1 data-testid="pages-read">{text}</Caption1>;
  return (
    <MessageBar intent="warning" data-testid="pages-read">
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  );
}
