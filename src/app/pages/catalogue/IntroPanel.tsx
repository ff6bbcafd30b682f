import { useState } from 'react';
import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Body1, Button, makeStyles, tokens } from '@fluentui/react-components';
import { Sparkle24Regular } from '@fluentui/react-icons/svg/sparkle';
import * as T from '../../tokens';
import { useApi, useService, useSessionState } from '../../hooks';
import { StorageKeys, readUserPreference, writeUserPreference, type KeyValueStorage } from '../../services/storage';

/** The topic posted to /api/platform/marketing when 'Great!' is clicked. */
export const NEWS_TOPIC = 'new-home-page';

/** The per-user choice (StorageKeys.userPreferences) that keeps the panel collapsed across log-ins. */
export const INTRO_COLLAPSED = 'introCollapsed';

const useStyles = makeStyles({
  panel: {
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    marginBottom: '20px',
  },
  body: { display: 'grid', gap: '12px', padding: '0 12px 16px', justifyItems: 'start' },
});

/**
 * 'Your new home page' (spec section 2, Home): open until the user clicks 'Great!', which posts
 * the marketing topic and remembers the collapse in storage (shouldCollapseNews). Collapsed (by
 * 'Great!' or its header), it stays collapsed for that user after every later log-in: the choice
 * is also kept per user id in the user preferences, which a log-out does not clear.
 */
export function IntroPanel() {
  const s = useStyles();
  const api = useApi();
  const storage = useService<KeyValueStorage>(T.Storage);
  const { userId } = useSessionState();
  const [open, setOpen] = useState(
    () =>
      storage.getItem(StorageKeys.shouldCollapseNews) !== 'true' && (userId === null || readUserPreference<boolean>(storage, userId, INTRO_COLLAPSED) !== true),
  );

  const remember = (nowOpen: boolean) => {
    setOpen(nowOpen);
    if (userId !== null) writeUserPreference(storage, userId, INTRO_COLLAPSED, !nowOpen);
  };

  const great = () => {
    remember(false);
    storage.setItem(StorageKeys.shouldCollapseNews, 'true');
    api.post('/api/platform/marketing', { topic: NEWS_TOPIC }).catch((e) => console.log(e));
  };

  return (
    <Accordion className={s.panel} collapsible openItems={open ? ['news'] : []} onToggle={(_, data) => remember(data.openItems.includes('news'))}>
      <AccordionItem value="news">
        <AccordionHeader as="h2" icon={<Sparkle24Regular />} size="large">
          Your new home page
        </AccordionHeader>
        <AccordionPanel>
          <div className={s.body}>
            <Body1>
              Welcome to your new home page. Here you will find the combinations you use, the ones we recommend for you, and news about new features and
              workflow updates as they arrive.
            </Body1>
            <Button appearance="primary" onClick={great}>
              Great!
            </Button>
          </div>
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
