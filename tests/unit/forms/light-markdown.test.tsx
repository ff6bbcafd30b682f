import { render } from '@testing-library/react';
import { Markdown } from '../../../src/app/forms/light-markdown';

describe('the light Markdown rjsf renders in the browser build', () => {
  it('renders bold and code inline, as rjsf’s own messages use them', () => {
    const { container } = render(<Markdown options={{ disableParsingRawHTML: true }}>{'**report.pdf** (application/pdf, 12 bytes) in `files`'}</Markdown>);
    expect(container.querySelector('strong')?.textContent).toBe('report.pdf');
    expect(container.querySelector('code')?.textContent).toBe('files');
    expect(container.textContent).toBe('report.pdf (application/pdf, 12 bytes) in files');
  });

  it('never renders HTML: markup in the text stays text', () => {
    const { container } = render(<Markdown data-testid="md">{'<img src=x onerror=alert(1)> *not bold*'}</Markdown>);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror=alert(1)> *not bold*');
    expect(container.querySelector('[data-testid="md"]')).not.toBeNull();
  });
});
