import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Workflow 10004. The upload / process screen is built by a later issue. */
export default function InvoiceExtractionView() {
  return <PlannedView title="Invoice Data Extraction" />;
}
