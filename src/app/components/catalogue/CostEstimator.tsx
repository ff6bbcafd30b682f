import { useId, useMemo, useState } from 'react';
import { Caption1, Label, Slider, Subtitle2, Text, makeStyles, tokens } from '@fluentui/react-components';
import { CALLS_MAX, CALLS_MIN, CALLS_STEP, DEFAULT_ESTIMATE_CALLS, DEFAULT_SLIDER_CALLS, clampCalls, estimate, perRequestFor } from '../../../core/catalogue';
import { useRegistry } from '../../hooks';
import { Panel } from '../Panel';

const useStyles = makeStyles({
  card: { padding: '16px', display: 'grid', gap: '10px' },
  fee: { display: 'flex', alignItems: 'baseline', gap: '6px', flexWrap: 'wrap' },
  amount: { fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700, fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  slider: { width: '100%' },
  title: { margin: 0 },
  // Fluent draws a tick per step on the rail; 10,000 steps of 100 would paint it solid white
  rail: { '::before': { backgroundImage: 'none' } },
});

const nf = new Intl.NumberFormat('en-US');
const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The cost estimator (spec section 9): fee = base_price + per_request x calls for the tier that
 * covers the calls, USD per month. Tiers and per-request prices come from plugin contributions.
 * Until the slider is moved the estimate is the default one, for 25 calls, and says so.
 */
export function CostEstimator({ combinationId }: { combinationId: number }) {
  const s = useStyles();
  const registry = useRegistry();
  const sliderId = useId();
  const [calls, setCalls] = useState<number | null>(null);
  const tiers = useMemo(() => registry.costTiers.values(), [registry]);
  const perRequest = perRequestFor(combinationId, registry.perRequestPrices);
  const shownCalls = calls ?? DEFAULT_ESTIMATE_CALLS;
  const est = estimate(shownCalls, tiers, perRequest);

  return (
    // a plain surface, not a Card (nothing in it is a card action): Panel, without Card's code
    <Panel className={s.card} aria-labelledby={`${sliderId}-title`}>
      <Subtitle2 as="h3" id={`${sliderId}-title`} className={s.title}>
        Cost estimator
      </Subtitle2>
      {est ? (
        <>
          <div className={s.fee} aria-live="polite">
            <span className={s.amount} data-testid="estimated-fee">
              ${money(est.fee)}
            </span>
            <Text>USD / month</Text>
            {/* said beside the amount, so the default is never read as the price of the slider's 100 */}
            <Text weight="semibold" data-testid="estimate-basis">
              for {nf.format(shownCalls)} calls
            </Text>
          </div>
          <Caption1 className={s.muted}>
            {calls === null
              ? `Default estimate, based on ${DEFAULT_ESTIMATE_CALLS} calls. Move the slider to estimate your volume.`
              : `${nf.format(shownCalls)} calls: $${money(est.tier.base_price)} base fee + $${perRequest} per call.`}
          </Caption1>
          <Label htmlFor={sliderId}>
            {calls === null ? 'Calls per month: move the slider to estimate your volume' : `Calls per month: ${nf.format(calls)}`}
          </Label>
          <Slider
            id={sliderId}
            className={s.slider}
            rail={{ className: s.rail }}
            min={CALLS_MIN}
            max={CALLS_MAX}
            step={CALLS_STEP}
            value={calls ?? DEFAULT_SLIDER_CALLS}
            onChange={(_, data) => setCalls(clampCalls(data.value))}
            aria-valuetext={`${nf.format(calls ?? DEFAULT_SLIDER_CALLS)} calls per month`}
          />
          <Caption1 className={s.muted}>
            {nf.format(CALLS_MIN)} to {nf.format(CALLS_MAX)} calls, in steps of {CALLS_STEP}.
          </Caption1>
        </>
      ) : (
        <Caption1>Pricing is not available at the moment.</Caption1>
      )}
    </Panel>
  );
}
