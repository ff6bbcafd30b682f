import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import WelcomePage from '../../../plugins/landing/WelcomePage';
import TeaserPage from '../../../plugins/landing/TeaserPage';
import { TEASER_SCENES } from '../../../plugins/landing/teaser-scenes';
import { renderInShell, testShell } from '../../support/render';

// webpack turns these into hashed asset URLs (new URL(…, import.meta.url)); Jest runs CommonJS
jest.mock('../../../plugins/landing/teaser-media', () => ({
  TEASER_VIDEO_URL: '/assets/teaser.0123abcd.webm',
  TEASER_POSTER_URL: '/assets/teaser-poster.0123abcd.webp',
  TEASER_CAPTIONS_URL: '/assets/teaser.en.0123abcd.vtt',
}));

describe('/welcome (spec section 2, Public generators and landing)', () => {
  it("offers 'Start for free' to /register, cards to /mia and /hal, and links to /login and /register", () => {
    renderInShell(<WelcomePage />, testShell(), '/welcome');
    expect(screen.getByRole('heading', { level: 1, name: 'Automate your business with AI workflows' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start for free' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: /Watch the tour/ })).toHaveAttribute('href', '/teaser');
    const tools = screen.getByRole('region', { name: 'Free AI tools' });
    expect(within(tools).getByRole('link', { name: /Press release generator/ })).toHaveAttribute('href', '/mia');
    expect(within(tools).getByRole('link', { name: /AI pitch generator/ })).toHaveAttribute('href', '/hal');
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByText(/Free for 30 days/)).toBeInTheDocument();
  });

  it("'Start for free' goes to /register in the app", async () => {
    const user = userEvent.setup();
    renderInShell(<WelcomePage />, testShell(), '/welcome');
    await user.click(screen.getByRole('link', { name: 'Start for free' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });
});

describe('/teaser', () => {
  it('shows the video with controls, a poster, English captions on by default and no autoplay', () => {
    const { container } = renderInShell(<TeaserPage />, testShell(), '/teaser');
    const video = container.querySelector('video')!;
    expect(video).toHaveAttribute('controls');
    expect(video).toHaveAttribute('preload', 'metadata');
    expect(video).toHaveAttribute('poster', '/assets/teaser-poster.0123abcd.webp');
    expect(video).not.toHaveAttribute('autoplay');
    expect(video).toHaveAccessibleName(/Flowmatic teaser: a \d+-second tour of the product/);
    const source = video.querySelector('source')!;
    expect(source).toHaveAttribute('src', '/assets/teaser.0123abcd.webm');
    expect(source).toHaveAttribute('type', 'video/webm');
    const track = video.querySelector('track')!;
    expect(track).toHaveAttribute('kind', 'captions');
    expect(track).toHaveAttribute('srclang', 'en');
    expect(track).toHaveAttribute('src', '/assets/teaser.en.0123abcd.vtt');
    expect(track).toHaveAttribute('default');
  });

  it('links to /login and /register and gives the transcript, one line per scene', () => {
    renderInShell(<TeaserPage />, testShell(), '/teaser');
    expect(screen.getByRole('heading', { level: 1, name: 'Something new is coming' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Flowmatic home' })).toHaveAttribute('href', '/welcome');
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(TEASER_SCENES.length);
    expect(items[0]).toHaveTextContent(`0:00 ${TEASER_SCENES[0].caption}`);
    expect(items[1]).toHaveTextContent(`0:${String(TEASER_SCENES[0].seconds).padStart(2, '0')}`);
  });
});
