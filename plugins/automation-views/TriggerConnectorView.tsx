import { PlannedView } from '../../src/app/components/catalogue/PlannedView';

/** Setup body of combinations 1, 8 and 9 (trigger + connectors). Built by a later issue. */
export default function TriggerConnectorView() {
  return <PlannedView title="Triggers and connectors" kind="setup" />;
}
