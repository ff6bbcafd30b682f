import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Workflow 10006. The upload / process screen is built by a later issue. */
export default function DocumentExtractionView() {
  return <PlannedView title="Document Data Extraction" />;
}
