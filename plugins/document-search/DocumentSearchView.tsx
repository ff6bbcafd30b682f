import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Workflow 10011. The query / results screen is built by a later issue. */
export default function DocumentSearchView() {
  return <PlannedView title="Intelligent Search" />;
}
