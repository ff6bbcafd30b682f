import { Body1, Caption1, Title1, makeStyles, tokens } from '@fluentui/react-components';
import { Link as RouterLink } from 'react-router-dom';
import { Logo, ButtonLink } from '../../src/app';
import { TEASER_CAPTIONS_URL, TEASER_POSTER_URL, TEASER_VIDEO_URL } from './teaser-media';
import { teaserTimeline } from './teaser-scenes';

const useStyles = makeStyles({
  page: {
    display: 'grid',
    justifyItems: 'center',
    gap: '20px',
    padding: '48px 24px 64px',
    textAlign: 'center',
    '@media (max-width: 480px)': { padding: '32px 16px 48px' },
  },
  home: {
    color: 'inherit',
    textDecoration: 'none',
    borderRadius: tokens.borderRadiusMedium,
  },
  frame: {
    width: '100%',
    maxWidth: '960px',
    borderRadius: tokens.borderRadiusXLarge,
    overflow: 'hidden',
    boxShadow: tokens.shadow16,
    backgroundColor: tokens.colorNeutralBackground3,
    lineHeight: 0,
  },
  video: {
    display: 'block',
    width: '100%',
    height: 'auto',
    aspectRatio: '16 / 9',
  },
  actions: {
    display: 'flex',
    gap: '12px',
    flexWrap: 'wrap',
    justifyContent: 'center',
  },
  transcript: { width: '100%', maxWidth: '960px', textAlign: 'start' },
  summary: { cursor: 'pointer', fontWeight: tokens.fontWeightSemibold },
  list: { margin: '8px 0 0', padding: 0, listStyleType: 'none', display: 'grid', gap: '4px' },
});

const timeline = teaserTimeline();
const SECONDS = Math.round(timeline[timeline.length - 1].end);

/** "0:04" */
const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

/**
 * /teaser: what is coming, shown by a short video of the product's own screens (WebM with a
 * poster and English captions; it never plays by itself), its transcript, and Log in and
 * Register (each one link styled as a button).
 */
export default function TeaserPage() {
  const s = useStyles();
  return (
    <main className={s.page}>
      <RouterLink to="/welcome" className={s.home} aria-label="Flowmatic home">
        <Logo size={40} />
      </RouterLink>
      <Title1 as="h1" align="center">
        Something new is coming
      </Title1>
      <Body1 align="center">AI workflows for finance, operations and customer experience, ready to switch on.</Body1>
      <div className={s.frame}>
        <video
          className={s.video}
          controls
          preload="metadata"
          poster={TEASER_POSTER_URL}
          width={1280}
          height={720}
          aria-label={`Flowmatic teaser: a ${SECONDS}-second tour of the product`}
          data-testid="teaser-video"
        >
          <source src={TEASER_VIDEO_URL} type="video/webm" />
          <track kind="captions" src={TEASER_CAPTIONS_URL} srcLang="en" label="English" default />
          Your browser cannot play this video. <a href={TEASER_VIDEO_URL}>Download the teaser (WebM)</a>.
        </video>
      </div>
      <div className={s.actions}>
        <ButtonLink to="/login" appearance="secondary">
          Log in
        </ButtonLink>
        <ButtonLink to="/register" appearance="primary">
          Register
        </ButtonLink>
      </div>
      <details className={s.transcript} id="teaser-transcript">
        <summary className={s.summary}>Transcript</summary>
        <ul className={s.list}>
          {timeline.map((scene) => (
            <li key={scene.path}>
              <Caption1>{clock(scene.start)}</Caption1> {scene.caption}
            </li>
          ))}
        </ul>
      </details>
    </main>
  );
}
