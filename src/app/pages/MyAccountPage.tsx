import { Suspense, lazy, useState, type ReactElement } from 'react';
import { Body1, Spinner, Title2, makeStyles, tokens, type SelectTabData, type SelectTabEvent } from '@fluentui/react-components';
import { RovingTab, RovingTabList } from '../components/RovingTabs';
import { Key20Regular } from '@fluentui/react-icons/svg/key';
import { KeyMultiple20Regular } from '@fluentui/react-icons/svg/key-multiple';
import { Money20Regular } from '@fluentui/react-icons/svg/money';
import { PeopleTeam20Regular } from '@fluentui/react-icons/svg/people-team';
import { Person20Regular } from '@fluentui/react-icons/svg/person';
import { Receipt20Regular } from '@fluentui/react-icons/svg/receipt';
import * as T from '../tokens';
import { useBreadcrumb, useService } from '../hooks';
import type { PageNavigator } from '../services/navigator';
import { DEFAULT_ACCOUNT_TAB, type AccountTab } from './account/account-form';
import { DetailsTab } from './account/DetailsTab';

/** The other tabs load when first chosen (./account/other-tabs says why). */
const loadOtherTabs = () => import(/* webpackChunkName: "account-tabs" */ './account/other-tabs');
const PlanTab = lazy(() => loadOtherTabs().then((m) => ({ default: m.PlanTab })));
const BillingTab = lazy(() => loadOtherTabs().then((m) => ({ default: m.BillingTab })));
const PasswordTab = lazy(() => loadOtherTabs().then((m) => ({ default: m.PasswordTab })));
const TeamTab = lazy(() => loadOtherTabs().then((m) => ({ default: m.TeamTab })));
const ApiKeysTab = lazy(() => loadOtherTabs().then((m) => ({ default: m.ApiKeysTab })));
/** pointing at or focusing the tab list starts the download, so a chosen tab is there at once */
const preloadOtherTabs = () => void loadOtherTabs().catch(() => undefined);

const TABS: Array<{ value: AccountTab; label: string; icon: ReactElement }> = [
  { value: 'my-details', label: 'My details', icon: <Person20Regular /> },
  { value: 'my-plan', label: 'My plan', icon: <Money20Regular /> },
  { value: 'my-billing', label: 'Billing', icon: <Receipt20Regular /> },
  { value: 'password-form', label: 'Password', icon: <Key20Regular /> },
  { value: 'my-team', label: 'My team', icon: <PeopleTeam20Regular /> },
  { value: 'api-keys', label: 'API keys', icon: <KeyMultiple20Regular /> },
];

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '1200px' },
  intro: { color: tokens.colorNeutralForeground2 },
  surface: {
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow4,
    overflow: 'hidden',
  },
  // the tabs wrap onto a second row on a phone: all six stay in sight, nothing scrolls sideways
  tabs: { padding: '8px 16px 0', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, flexWrap: 'wrap', rowGap: '4px' },
  panel: { padding: '24px', '@media (max-width: 640px)': { padding: '16px' } },
});

/** My Account (spec section 2): details, plan, billing, password, the team teaser and the API keys (issue 23). */
export default function MyAccountPage() {
  const s = useStyles();
  const navigator = useService<PageNavigator>(T.Navigator);
  const [tab, setTab] = useState<AccountTab>(DEFAULT_ACCOUNT_TAB);
  useBreadcrumb('My Account', '/my-account');

  const onTabSelect = (_e: SelectTabEvent, data: SelectTabData) => {
    const next = data.value as AccountTab;
    setTab(next);
    // spec: choosing my-details reloads the page (through the Navigator service, fakeable in tests)
    if (next === 'my-details') navigator.reload();
  };

  return (
    <div className={s.page}>
      <div>
        <Title2 as="h1" block style={{ margin: 0 }}>
          My Account
        </Title2>
        <Body1 as="p" className={s.intro} style={{ margin: '4px 0 0' }}>
          Manage your details, your plan, billing, password and API keys.
        </Body1>
      </div>
      <div className={s.surface}>
        <RovingTabList
          className={s.tabs}
          selectedValue={tab}
          onTabSelect={onTabSelect}
          aria-label="Account sections"
          onPointerEnter={preloadOtherTabs}
          onFocus={preloadOtherTabs}
        >
          {TABS.map((t) => (
            <RovingTab key={t.value} value={t.value} icon={t.icon} id={`account-tab-${t.value}`} aria-controls="account-panel">
              {t.label}
            </RovingTab>
          ))}
        </RovingTabList>
        <div className={s.panel} role="tabpanel" id="account-panel" aria-labelledby={`account-tab-${tab}`}>
          {tab === 'my-details' && <DetailsTab />}
          <Suspense fallback={<Spinner label="Loading..." />}>
            {tab === 'my-plan' && <PlanTab />}
            {tab === 'my-billing' && <BillingTab />}
            {tab === 'password-form' && <PasswordTab />}
            {tab === 'my-team' && <TeamTab />}
            {tab === 'api-keys' && <ApiKeysTab />}
          </Suspense>
        </div>
      </div>
    </div>
  );
}
