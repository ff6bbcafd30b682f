import { Suspense, lazy, useState } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { PersonFeedback20Regular } from '@fluentui/react-icons/svg/person-feedback';
import { ChunkBoundary } from '../components/ChunkBoundary';

const useStyles = makeStyles({
  tab: {
    position: 'fixed',
    right: 0,
    top: '50%',
    transform: 'translateY(-50%) rotate(180deg)',
    writingMode: 'vertical-rl',
    zIndex: 10,
    padding: '14px 8px',
    minWidth: 'auto',
    borderRadius: `0 ${tokens.borderRadiusMedium} ${tokens.borderRadiusMedium} 0`,
    boxShadow: tokens.shadow8,
    // on a phone and a small tablet: a small button in the page's flow, never over the content.
    // It is the layout's last grid item, after the page column, pulled up into the 72 px the
    // page column keeps free below its content (AppLayout's content padding): a fixed button
    // would cover whatever scrolls beneath it.
    '@media (max-width: 768px)': {
      position: 'static',
      justifySelf: 'end',
      alignSelf: 'end',
      top: 'auto',
      right: 'auto',
      transform: 'none',
      writingMode: 'horizontal-tb',
      margin: '-56px 16px 16px 0',
      padding: '6px 12px',
      boxShadow: 'none',
      borderRadius: tokens.borderRadiusCircular,
    },
  },
});

/** The dialog's chunk (issue 7: no first load carries a dialog nobody has opened yet). */
const loadDialog = () => import(/* webpackChunkName: "feedback-dialog" */ './FeedbackDialog');
const FeedbackDialog = lazy(loadDialog);

/**
 * The Beta feedback tab on the right edge of every signed-in page (in the 64 px right gutter the
 * layout keeps free on wide screens; at the foot of the page on narrow ones). The dialog loads on the first
 * click; pointing at or focusing the tab starts the download, so it is there by the click.
 */
export function FeedbackTab() {
  const s = useStyles();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const preload = () => void loadDialog().catch(() => undefined);
  return (
    <>
      <Button
        className={s.tab}
        appearance="primary"
        icon={<PersonFeedback20Regular />}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        Feedback
      </Button>
      {opened && (
        <ChunkBoundary>
          <Suspense fallback={null}>
            <FeedbackDialog open={open} onOpenChange={setOpen} />
          </Suspense>
        </ChunkBoundary>
      )}
    </>
  );
}
