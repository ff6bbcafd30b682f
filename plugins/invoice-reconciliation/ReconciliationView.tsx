import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Combination 10's setup body. The upload / config / results view is built by a later issue. */
export default function ReconciliationView() {
  return <PlannedView title="Invoice Reconciliation" kind="setup" />;
}
