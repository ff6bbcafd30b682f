import { render, screen } from '@testing-library/react';
import { PagesRead, pagesReadText } from '../../../src/app';

describe('PagesRead (issue 25: multi-page documents say how many pages were read)', () => {
  it('says how many pages were read', () => {
    expect(pagesReadText(3, 3)).toBe('Read 3 of 3 pages.');
    expect(pagesReadText(200, 20)).toBe('Read the first 20 of 200 pages: the rest of the document was not read.');
    expect(pagesReadText(1_200, 1)).toBe('Read only the first page of 1,200: the rest of the document was not read.');
    expect(pagesReadText(1, 1)).toBeNull();
  });

  it('a caption when every page was read, a warning when some were not, nothing for one page', () => {
    const { rerender } = render(<PagesRead pages={3} pagesRead={3} />);
    expect(screen.getByTestId('pages-read')).toHaveTextContent('Read 3 of 3 pages.');
    rerender(<PagesRead pages={200} pagesRead={20} />);
    expect(screen.getByTestId('pages-read')).toHaveTextContent('Read the first 20 of 200 pages: the rest of the document was not read.');
    rerender(<PagesRead pages={1} pagesRead={1} />);
    expect(screen.queryByTestId('pages-read')).toBeNull();
    rerender(<PagesRead pages={undefined} pagesRead={undefined} />);
    expect(screen.queryByTestId('pages-read')).toBeNull();
  });
});
