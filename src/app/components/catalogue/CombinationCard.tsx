import { useEffect, useId, useState } from 'react';
import { Badge, Body1, Button, Caption1, Card, CardFooter, Text, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import { ArrowDownload16Regular } from '@fluentui/react-icons/svg/arrow-download';
import { Checkmark16Regular } from '@fluentui/react-icons/svg/checkmark';
import { ThumbLike16Regular } from '@fluentui/react-icons/svg/thumb-like';
import type { Combination } from '../../../core/domain';
import { CombinationLinks } from '../../../core/plugin';
import {
  CARD_STATUS_LABEL,
  VOTED_LABEL,
  VOTE_LABEL,
  cardAction,
  cleanCombinationName,
  combinationPath,
  formatLongDate,
  type CardStatus,
} from '../../../core/catalogue';
import { useApi, useEventBus, useRegistry } from '../../hooks';
import { ApiError } from '../../services/http';
import { ButtonLink } from './ButtonLink';
import { CatalogueIcon } from './CatalogueIcon';
import { ConnectorIcons } from './ConnectorIcons';

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', gap: '12px', padding: '20px', height: '100%', boxSizing: 'border-box' },
  head: { display: 'flex', gap: '12px', alignItems: 'flex-start', justifyContent: 'space-between' },
  titles: { display: 'grid', gap: '4px', minWidth: 0 },
  name: { margin: 0, fontSize: tokens.fontSizeBase400, lineHeight: tokens.lineHeightBase400, fontWeight: tokens.fontWeightSemibold },
  sub: { color: tokens.colorNeutralForeground2 },
  date: { color: tokens.colorNeutralForeground3 },
  stats: { display: 'flex', gap: '16px', color: tokens.colorNeutralForeground2, alignItems: 'center' },
  stat: { display: 'inline-flex', gap: '4px', alignItems: 'center' },
  grow: { flexGrow: 1 },
  footer: { marginTop: 'auto', display: 'flex', flexWrap: 'wrap', gap: '8px' },
  error: { color: tokens.colorPaletteRedForeground1 },
  notWorking: { margin: 0, color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  badge: { flexShrink: 0, whiteSpace: 'nowrap' },
});

const BADGE_COLOR: Record<CardStatus, BadgeProps['color']> = {
  coming_soon: 'warning',
  connected: 'success',
  inactive: 'informative',
};

export interface CombinationCardProps {
  combination: Combination;
  /** computed by the screen from the user's recipes and connections (core/catalogue cardStatus) */
  status: CardStatus;
  /** the user voted before (my_vote, or the votes list) */
  voted?: boolean;
  /**
   * Set when a running recipe of this combination has a trigger that cannot listen (issue 19: the
   * e-mail port taken, the Drive connection lost): the reason, or '' when none was given.
   */
  notWorking?: string;
}

export const VOTE_FAILED = 'Your vote could not be saved. Please try again.';

/** The combination card in all its states (spec section 2, Combination card; section 4, Card state). */
export function CombinationCard({ combination: c, status, voted: votedBefore = false, notWorking }: CombinationCardProps) {
  const s = useStyles();
  const api = useApi();
  const bus = useEventBus();
  const registry = useRegistry();
  const titleId = useId();
  const [voted, setVoted] = useState(votedBefore || !!c.my_vote);
  const [likes, setLikes] = useState(c.votes ?? 0);
  const [voteError, setVoteError] = useState(false);

  useEffect(() => {
    if (votedBefore) setVoted(true);
  }, [votedBefore]);
  useEffect(() => setLikes(c.votes ?? 0), [c.votes]);

  const vote = async () => {
    if (voted) return;
    // one more like at once; the server's answer only corrects it
    setVoted(true);
    setVoteError(false);
    setLikes((n) => n + 1);
    try {
      const reply = await api.post<{ votes?: number }>('/api/platform/votes', { combination_id: c.id });
      if (typeof reply?.votes === 'number') setLikes(reply.votes);
      bus.publish('vote/cast', { combinationId: c.id });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        // already voted: the count we were given includes that vote
        setLikes(c.votes ?? 0);
        return;
      }
      console.log(e);
      setVoted(false);
      setLikes((n) => n - 1);
      setVoteError(true);
    }
  };

  const name = cleanCombinationName(c.name);
  const comingSoon = status === 'coming_soon';
  // links plugins add to a card (Monitoring on a running combination, ...)
  const links = comingSoon
    ? []
    : registry.contributions
        .all(CombinationLinks)
        .map((l) => ({ id: l.id, label: l.label, to: l.to(c) }))
        .filter((l): l is { id: string; label: string; to: string } => typeof l.to === 'string');
  return (
    <Card className={s.card} aria-labelledby={titleId} data-combination-id={c.id}>
      <div className={s.head}>
        <CatalogueIcon icon={c.icon} name={c.name} muted={comingSoon} />
        <Badge className={s.badge} appearance="tint" color={BADGE_COLOR[status]} shape="rounded">
          {CARD_STATUS_LABEL[status]}
        </Badge>
      </div>
      <div className={s.titles}>
        <Text as="h3" id={titleId} className={s.name}>
          {name}
        </Text>
        {c.sub_title && <Body1 className={s.sub}>{c.sub_title}</Body1>}
      </div>
      {c.created_time && <Caption1 className={s.date}>Created {formatLongDate(c.created_time)}</Caption1>}
      {notWorking !== undefined && (
        <Caption1 as="p" className={s.notWorking} data-testid="trigger-not-working">
          {notWorking ? `Not working: ${notWorking}` : 'Not working'}
        </Caption1>
      )}
      <ConnectorIcons connectors={c.connectors} />
      <div className={s.stats}>
        <span className={s.stat}>
          <ArrowDownload16Regular aria-hidden /> Downloads <strong>0</strong>
        </span>
        <span className={s.stat} aria-live="polite">
          <ThumbLike16Regular aria-hidden /> Likes <strong data-testid="likes">{likes}</strong>
        </span>
      </div>
      <CardFooter className={s.footer}>
        {comingSoon ? (
          <div className={s.grow}>
            <Button appearance={voted ? 'secondary' : 'primary'} disabled={voted} icon={voted ? <Checkmark16Regular /> : undefined} onClick={vote}>
              {voted ? VOTED_LABEL : VOTE_LABEL}
            </Button>
            {voteError && (
              <Caption1 as="p" role="alert" className={s.error}>
                {VOTE_FAILED}
              </Caption1>
            )}
          </div>
        ) : (
          <>
            <ButtonLink to={combinationPath(c)} aria-label={`${cardAction(c)}: ${name}`}>
              {cardAction(c)}
            </ButtonLink>
            {links.map((l) => (
              <ButtonLink key={l.id} to={l.to} appearance="subtle" aria-label={`${l.label}: ${name}`}>
                {l.label}
              </ButtonLink>
            ))}
          </>
        )}
      </CardFooter>
    </Card>
  );
}
