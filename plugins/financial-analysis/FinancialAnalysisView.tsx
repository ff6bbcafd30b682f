import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Combination 11's setup body. The upload / focus area / report view is built by a later issue. */
export default function FinancialAnalysisView() {
  return <PlannedView title="Financial Analysis" kind="setup" />;
}
